import { getStreamStore } from "../lib/stream-store.ts";
// In-page timings for the stream workbench (bench/console-bench-streams.ts drives them): from a
// key press or click to the first frame painted after the list shows its result.

function nextFrame(): Promise<number> {
  // rAF runs before paint; the timeout after it runs once that frame has been painted.
  return new Promise((resolve) =>
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)),
  );
}

async function paintedWhen(done: () => boolean, timeoutMs = 5000): Promise<number> {
  const started = performance.now();
  while (!done()) {
    if (performance.now() - started > timeoutMs) {
      const buttons = [...document.querySelectorAll("button")].map((b) => b.textContent);
      const last = getStreamStore("incoming").getState().messages.at(-1)?.seq;
      const count = `${countElement().textContent}, last seq ${last}`;
      throw new Error(`timed out waiting for the list (${count}); buttons: ${buttons.join(", ")}`);
    }
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return nextFrame();
}

function countElement(): HTMLElement {
  return document.querySelector<HTMLElement>('[data-testid="shown-count"]')!;
}

function button(name: RegExp): HTMLButtonElement | undefined {
  return [...document.querySelectorAll("button")].find((b) => name.test(b.textContent ?? ""));
}

const keyLatencies: number[] = [];

/** Times every key pressed in "Search messages" until the list shows that search, painted. */
export function watchSearchKeys(): void {
  const input = document.querySelector<HTMLInputElement>("#stream-search")!;
  input.addEventListener("keydown", (event) => {
    const pressedAt = event.timeStamp;
    // Done when the list shows what the field holds now: a key typed before the list caught up
    // with this one is answered by the same paint.
    setTimeout(() => {
      void paintedWhen(() => {
        const count = countElement();
        return count.dataset.search === input.value && count.getAttribute("aria-busy") === "false";
      }).then((paintedAt) => keyLatencies.push(paintedAt - pressedAt));
    }, 0);
  });
}

export function readSearchKeys(): { latencies: number[]; shown: string } {
  return { latencies: [...keyLatencies], shown: countElement().textContent ?? "" };
}

/** Pause, wait until `waiting` messages are held back, then "N new": each click to its paint. */
export async function pauseAndResume(waiting: number) {
  const pausedAt = performance.now();
  const pauseButton = button(/^Pause$/);
  if (!pauseButton)
    throw new Error(
      `no Pause button among ${[...document.querySelectorAll("button")].map((b) => b.textContent).join(", ")}`,
    );
  pauseButton.click();
  const pausePaint = (await paintedWhen(() => button(/^Resume$/) !== undefined)) - pausedAt;
  await paintedWhen(
    () => Number(/^(\d+) new$/.exec(button(/ new$/)?.textContent ?? "")?.[1]) >= waiting,
    60_000,
  );
  const resumeButton = button(/ new$/)!;
  const held = resumeButton.textContent;
  const resumedAt = performance.now();
  resumeButton.click();
  const resumePaint = (await paintedWhen(() => button(/^Pause$/) !== undefined)) - resumedAt;
  return { pausePaintMs: pausePaint, resumePaintMs: resumePaint, held };
}

/** On a reload: when the first message card was painted, in ms since navigation started. */
export async function timeFirstPaintedCard() {
  const scriptMs = performance.now();
  const store = getStreamStore("incoming");
  const paintedMs = await paintedWhen(
    () => document.querySelector('[data-testid="stream-message"]') !== null,
    30_000,
  );
  const firstCount = store.getState().messages.length;
  await paintedWhen(() => store.getState().hydrated, 30_000);
  return { scriptMs, paintedMs, firstCount, allReadMs: performance.now() };
}
