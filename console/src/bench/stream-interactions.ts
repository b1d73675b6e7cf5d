import { useViewPreferences } from "../features/streams/view-preferences.ts";
import { getStreamStore } from "../lib/streams/stream-store.ts";
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

/** The keys (`stream:seq`) of the message cards on screen (below any fixed top bar), in order. */
function cardsOnScreen(): string[] {
  const bar = document.querySelector("header.MuiAppBar-positionFixed");
  const top = bar?.getBoundingClientRect().bottom ?? 0;
  return [...document.querySelectorAll<HTMLElement>("[data-message-key]")]
    .map((card) => ({ card, box: card.getBoundingClientRect() }))
    .filter(({ box }) => box.height > 0 && box.top >= top - 1 && box.bottom <= window.innerHeight)
    .sort((a, b) => a.box.top - b.box.top)
    .map(({ card }) => card.dataset.messageKey ?? "");
}

/**
 * At the retention limit (10,000 held, each arrival evicting the oldest): Pause, wait until
 * `waiting` messages are held back, check that the cards on screen did not move, then "N new",
 * timed from the click to the paint that shows the new messages: the newest on top with Newest
 * first, else the first that arrived while paused.
 */
export async function pauseAndResume(waiting: number) {
  const store = getStreamStore("incoming");
  const pausedAt = performance.now();
  const pauseButton = button(/^Pause$/);
  if (!pauseButton)
    throw new Error(
      `no Pause button among ${[...document.querySelectorAll("button")].map((b) => b.textContent).join(", ")}`,
    );
  const lastBeforePause = store.getState().messages.at(-1)!;
  pauseButton.click();
  const pausePaint = (await paintedWhen(() => button(/^Resume$/) !== undefined)) - pausedAt;
  const linesAtPause = cardsOnScreen();
  await paintedWhen(
    () => Number(/^(\d+) new$/.exec(button(/ new$/)?.textContent ?? "")?.[1]) >= waiting,
    60_000,
  );
  const linesBeforeResume = cardsOnScreen();
  const heldStill = JSON.stringify(linesAtPause) === JSON.stringify(linesBeforeResume);
  const evicted = !store.getState().messages.some((m) => m.seq === lastBeforePause.seq - 9_000);
  const resumeButton = button(/ new$/)!;
  const held = resumeButton.textContent;
  const newestFirst = useViewPreferences.getState().newestFirst;
  const messages = store.getState().messages;
  const target = newestFirst
    ? messages.at(-1)!
    : messages.find((m) => m.seq > lastBeforePause.seq)!;
  const resumedAt = performance.now();
  resumeButton.click();
  const targetKey = `${target.stream}:${target.seq}`;
  const resumePaint = (await paintedWhen(() => cardsOnScreen().includes(targetKey))) - resumedAt;
  return {
    pausePaintMs: pausePaint,
    resumePaintMs: resumePaint,
    held,
    heldStill,
    atLimit: evicted,
    cardsOnScreen: linesAtPause.length,
  };
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
