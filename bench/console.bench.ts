// Console benchmarks in Chromium: (a) JsonTree mount time for an object of 10,000 keys;
// (b) 10,000 stream messages at 500/s through the real SSE client into the stream page, with
// Compact and Newest first on: the longest main-thread task and whether all are held (in memory
// and in IndexedDB); (c) while more keep arriving, search key presses and Pause / "N new"; (d) a
// reload to the painted list (console-bench-streams.ts).
// Needs the bench build (npm run build:bench -w console, which writes console/dist-bench).
// Run: node bench/console.bench.ts [--dist console/dist-bench] [--messages 10000] [--rate 500]
import { stat } from "node:fs/promises";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { startBenchServer } from "./console-bench-server.ts";
import { summariseMainThreadTasks } from "./console-bench-trace.ts";
import { timeReload, timeSearchAndPause } from "./console-bench-streams.ts";

const { values } = parseArgs({
  options: {
    dist: { type: "string", default: resolve(import.meta.dirname, "../console/dist-bench") },
    messages: { type: "string", default: "10000" },
    rate: { type: "string", default: "500" },
    // Enough to keep arriving through (c); the feed is stopped before the reload of (d).
    more: { type: "string", default: "100000" },
    keys: { type: "string", default: "10000" },
  },
});
const dist = resolve(values.dist);
const messageCount = Number(values.messages);
const ratePerSecond = Number(values.rate);

async function main() {
  if (!(await stat(join(dist, "bench.html")).catch(() => null))) {
    throw new Error(`${dist}/bench.html is missing: run \`npm run build\` first`);
  }
  // The feed goes on past the 10,000 held, for the searches and pauses of (c).
  const { origin, allSent, sentCount, stopFeed, server } = await startBenchServer(dist, {
    messageCount: messageCount + Number(values.more),
    ratePerSecond,
  });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (error) => console.error("page error:", error.message));
    await page.goto(`${origin}/bench.html`);
    await page.waitForFunction(() => document.title === "bench ready");

    const runs = [];
    for (let i = 0; i < 5; i++)
      runs.push(
        await page.evaluate(
          (keys) => (window as unknown as BenchWindow).corralBench.mountJsonTree(keys),
          Number(values.keys),
        ),
      );
    const firstFrames = runs.map((r) => r.firstFrameMs).sort((a, b) => a - b);
    console.log(
      `(a) JsonTree, ${values.keys} keys: mount + first frame median ${firstFrames[2]!.toFixed(1)} ms ` +
        `(runs ${firstFrames.map((ms) => ms.toFixed(1)).join(", ")}; first run ${runs[0]!.firstFrameMs.toFixed(1)} ms, ` +
        `commit only ${runs[0]!.commitMs.toFixed(1)} ms), ${runs[0]!.rowsInDom} rows in the DOM`,
    );

    const { mountMs } = await page.evaluate(
      (fe) => (window as unknown as BenchWindow).corralBench.mountStreamPage(fe),
      `${origin}/fe`,
    );
    await page.evaluate(() =>
      (window as unknown as BenchWindow).corralBench.setView({ compact: true, newestFirst: true }),
    );
    await page.waitForTimeout(500);
    const started = Date.now();
    // The trace gives each main-thread task's CPU time beside its wall time: on a shared machine
    // a task's wall time includes waiting for a core, which the longtask API cannot tell apart.
    await browser.startTracing(page, { categories: ["disabled-by-default-devtools.timeline"] });
    await page.evaluate(() => (window as unknown as BenchWindow).corralBench.connectStreams());
    while (sentCount() < messageCount) await page.waitForTimeout(50);
    const seconds = (Date.now() - started) / 1000;
    await page.waitForTimeout(300);
    const tasks = summariseMainThreadTasks(await browser.stopTracing());
    const result = await page.evaluate(() =>
      (window as unknown as BenchWindow).corralBench.readStreamPage(),
    );
    const stored = await page.evaluate(() =>
      (window as unknown as BenchWindow).corralBench.countStoredRows(),
    );
    console.log(
      `(b) stream page, ${messageCount} messages at ${ratePerSecond}/s, all sent in ${seconds.toFixed(1)} s: ` +
        `held ${result.held}/${messageCount} (IndexedDB rows ${stored}), ${result.cardsInDom} message cards in the DOM ` +
        `(empty page mounted in ${mountMs.toFixed(0)} ms before the feed started)`,
    );
    console.log(
      `    PerformanceObserver longtask: ${result.longTaskCount} tasks over 50 ms, longest ${result.longestTaskMs} ms; ` +
        `longest gap between frames ${result.longestFrameGapMs.toFixed(0)} ms over ${result.frames} frames` +
        (result.storageNote ? `; note: ${result.storageNote}` : ""),
    );
    if (result.longTaskCount > 0)
      console.log("    long tasks (ms since the page started):", JSON.stringify(result.longTasks));
    console.log(
      `    trace of the renderer's main thread: ${tasks.count} tasks, longest ${tasks.longestWallMs.toFixed(0)} ms wall / ` +
        `${tasks.longestCpuMs.toFixed(0)} ms CPU; over 50 ms: ${tasks.overWall} by wall, ${tasks.overCpu} by CPU; ` +
        `busy ${(tasks.busyCpuMs / 1000).toFixed(1)} s CPU; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
    );
    if (tasks.overCpu > 0)
      console.log(`    tasks over 50 ms of CPU: ${tasks.overCpuAt.join("; ")}`);
    const streamOk = result.held >= messageCount && stored >= messageCount && tasks.overCpu === 0;
    // Content is "<p>Message number N</p>": this ends at N's last three digits, so it finds 10 in
    // any 10,000 held, narrowing key by key from nearly all ("5") to those few.
    const workbench = await timeSearchAndPause(browser, page, "555</p>");
    stopFeed();
    await allSent;
    await page.waitForTimeout(1000);
    const reload = await timeReload(page, origin);
    const ok = streamOk && workbench.ok && reload.ok;
    console.log(
      ok
        ? "aims met: all held, no main-thread task over 50 ms of CPU, search and pause paint within 200 ms, reload paints within 1 s"
        : `aims NOT met (stream ${streamOk}, search and pause ${workbench.ok}, reload ${reload.ok})`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}

/** What console/src/bench/bench-main.tsx puts on window. */
type BenchWindow = {
  corralBench: {
    mountJsonTree: (
      keys: number,
    ) => Promise<{ commitMs: number; firstFrameMs: number; rowsInDom: number }>;
    mountStreamPage: (feBase: string) => Promise<{ mountMs: number }>;
    connectStreams: () => void;
    readStreamPage: () => Promise<{
      held: number;
      cardsInDom: number;
      storageNote: string | null;
      longTaskCount: number;
      longestTaskMs: number;
      longTasks: Array<{ atMs: number; durationMs: number }>;
      longestFrameGapMs: number;
      frames: number;
    }>;
    countStoredRows: () => Promise<number>;
    setView: (view: { compact: boolean; newestFirst: boolean }) => void;
  };
};

await main();
