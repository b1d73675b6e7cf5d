// The stream workbench under load (issue 19): with 10,000 held and messages still arriving,
// each key press in "Search messages" and each Pause / "N new" click, timed to the painted list;
// then a reload, timed to the first painted message card.
import type { Browser, Page } from "playwright-core";
import { summariseMainThreadTasks } from "./console-bench-trace.ts";

type PauseResult = {
  pausePaintMs: number;
  resumePaintMs: number;
  held: string | null;
  heldStill: boolean;
  atLimit: boolean;
  cardsOnScreen: number;
};

type WorkbenchWindow = {
  corralBench: {
    watchSearchKeys: () => void;
    readSearchKeys: () => { latencies: number[]; shown: string };
    pauseAndResume: (waiting: number) => Promise<PauseResult>;
    setView: (view: { compact: boolean; newestFirst: boolean }) => void;
    reloadPaint: () => Promise<{
      scriptMs: number;
      paintedMs: number;
      firstCount: number;
      allReadMs: number;
    }> | null;
  };
};
const bench = (page: Page) => page.evaluate.bind(page);

export async function timeSearchAndPause(browser: Browser, page: Page, query: string) {
  const evaluate = bench(page);
  await browser.startTracing(page, { categories: ["disabled-by-default-devtools.timeline"] });
  await evaluate(() => (window as unknown as WorkbenchWindow).corralBench.watchSearchKeys());
  await page.locator("#stream-search").click();
  for (const key of query) {
    await page.keyboard.type(key);
    await page.waitForTimeout(150);
  }
  await page.waitForTimeout(500);
  const search = await evaluate(() =>
    (window as unknown as WorkbenchWindow).corralBench.readSearchKeys(),
  );
  await page.keyboard.press("Escape");
  await page.locator("#stream-search").blur();
  // Newest first (the view of (b)): "N new" shows the newest on top. Then oldest first, where
  // the list would move as the oldest are evicted, and "N new" brings the first new one up.
  const pauses: Array<{ order: string } & PauseResult> = [];
  for (const newestFirst of [true, false]) {
    await evaluate((view) => (window as unknown as WorkbenchWindow).corralBench.setView(view), {
      compact: true,
      newestFirst,
    });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(500);
    const result = await evaluate(() =>
      (window as unknown as WorkbenchWindow).corralBench.pauseAndResume(2000),
    );
    pauses.push({ order: newestFirst ? "newest first" : "oldest first", ...result });
  }
  // Back to the view of (b) for the reload of (d).
  await evaluate(() =>
    (window as unknown as WorkbenchWindow).corralBench.setView({
      compact: true,
      newestFirst: true,
    }),
  );
  const tasks = summariseMainThreadTasks(await browser.stopTracing());
  const sorted = [...search.latencies].sort((a, b) => a - b);
  console.log(
    `(c) "Search messages" while 500/s arrive, ${query.length} keys ("${query}"): repaint after each key ` +
      `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, worst ${sorted.at(-1)!.toFixed(0)} ms ` +
      `(all: ${search.latencies.map((ms) => ms.toFixed(0)).join(", ")}); list then "${search.shown}"`,
  );
  for (const pause of pauses)
    console.log(
      `    ${pause.order}: Pause painted in ${pause.pausePaintMs.toFixed(0)} ms; at the retention ` +
        `limit (${pause.atLimit ? "oldest evicted meanwhile" : "NOT at the limit"}), the ` +
        `${pause.cardsOnScreen} cards on screen ${pause.heldStill ? "held still" : "MOVED"}; ` +
        `"${pause.held}" showed the new messages in ${pause.resumePaintMs.toFixed(0)} ms`,
    );
  console.log(
    `    main thread meanwhile: ${tasks.count} tasks, longest ${tasks.longestCpuMs.toFixed(0)} ms CPU ` +
      `(${tasks.longestWallMs.toFixed(0)} ms wall); over 50 ms of CPU: ${tasks.overCpu}` +
      (tasks.overCpu > 0 ? ` (${tasks.overCpuAt.join("; ")})` : ""),
  );
  const worstKey = sorted.at(-1)!;
  // A search that finds nothing would time an empty repaint, not the list an operator reads.
  const found = /^[1-9]\d* of /.test(search.shown);
  if (!found) console.log(`    the search found nothing: "${search.shown}"`);
  return {
    ok:
      found &&
      search.latencies.length === query.length &&
      worstKey < 200 &&
      pauses.every(
        (pause) =>
          pause.pausePaintMs < 200 && pause.heldStill && pause.atLimit && pause.resumePaintMs < 200,
      ) &&
      tasks.overCpu === 0,
  };
}

export async function timeReload(page: Page, origin: string) {
  const evaluate = bench(page);
  const runs: number[] = [];
  const parts: string[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(`${origin}/bench.html?reload=1`);
    await page.waitForFunction(() => document.title === "bench ready");
    const run = await evaluate(() =>
      (window as unknown as WorkbenchWindow).corralBench.reloadPaint()!,
    );
    runs.push(run.paintedMs);
    parts.push(
      `script ran at ${run.scriptMs.toFixed(0)}, ${run.firstCount} painted at ${run.paintedMs.toFixed(0)}, all read at ${run.allReadMs.toFixed(0)}`,
    );
  }
  const cards = await page.locator('[data-testid="stream-message"]').count();
  const held = await page.getByTestId("shown-count").innerText();
  const sorted = [...runs].sort((a, b) => a - b);
  console.log(
    `(d) reload to a painted list: median ${sorted[1]!.toFixed(0)} ms from navigation start ` +
      `(runs: ${parts.join("; ")} ms); ${cards} cards painted, "${held}"`,
  );
  return { ok: sorted[1]! < 1000 };
}
