// Wave 3 "Streams remember what the server remembers", on a browser that never saw the stream:
//   1. how soon the page shows the newest messages the server keeps (target: within 1 s), and the
//      newest of them in view (the page opens at its newest end): on a new browser, after a reload,
//      and an arrival while the view is there, from the call that causes it (each within 1 s);
//   2. "Load earlier" clicked until "Everything the server keeps" (each page, and the whole way);
//   3. a server-side search for a word only the oldest event holds, to its "1 of M";
//   4. long tasks (over 50 ms, Chromium's PerformanceObserver) on the main thread from the page's
//      shell on, while history loads and pages back (target: none).
//
// `node bench/stream-history.bench.ts [--events 10000] [--runs 5]`
//
// A real `corral serve` on a fresh SQLite file serving the built console (`npm run build` first),
// one account whose error stream holds --events events (unknown methods, caused through /fe; the
// first is `needle_method`). Each run is a new Chromium context (empty IndexedDB) whose
// localStorage holds only the sign-in, opened straight at /stream/error: timed from navigation
// to the first message tree on screen. Steps 2–4 run once, in a further new context.
import { parseArgs } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import {
  createCorralAccount,
  startCorral,
  tempSqliteDatabase,
} from "../test-kit/corral-process.ts";
import { benchCli, feClient } from "./lib/corral-client.ts";

const { values } = parseArgs({
  options: { events: { type: "string", default: "10000" }, runs: { type: "string", default: "5" } },
});
const events = Number(values.events);
const runs = Number(values.runs);
const TARGET_MS = 1_000;

async function main() {
  const database = tempSqliteDatabase("corral-bench-");
  createCorralAccount(database, "bench", "bench-password", benchCli);
  const corral = await startCorral({ database, cli: benchCli, stderr: "inherit" });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  try {
    const api = await feClient(corral.url, "bench", "bench-password");
    const actor = await api.createActor("historian");
    await api.trigger("needle_method", { actor: actor.id });
    let next = 1;
    const worker = async () => {
      while (next < events) await api.trigger(`no_such_method_${next++}`, { actor: actor.id });
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    // One after the rest, so the newest is known by name.
    let newest = "newest_method";
    await api.trigger(newest, { actor: actor.id });
    const stored = {
      state: { token: api.token, actors: [], methodInformations: [], currentActor: actor.id },
      version: 0,
    };
    const times: number[] = [];
    const shells: number[] = [];
    const newestTimes: number[] = [];
    const reloadTimes: number[] = [];
    const arrivalTimes: number[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await context.addInitScript((value) => {
        localStorage.setItem("user-storage", value);
      }, JSON.stringify(stored));
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${corral.url}/stream/error`);
      // The page itself (its search field), then the first message in it.
      await page.getByRole("searchbox", { name: "Search messages" }).waitFor({ timeout: 30_000 });
      shells.push(performance.now() - started);
      await page.locator("main .json-tree").first().waitFor({ timeout: 30_000 });
      times.push(performance.now() - started);
      await summaryInView(page, newest);
      newestTimes.push(performance.now() - started);
      // After a reload: the newest again, from what this browser now stores.
      const reloaded = performance.now();
      await page.reload();
      await summaryInView(page, newest);
      reloadTimes.push(performance.now() - reloaded);
      // At the newest end: an arrival, from the call that causes it to its line on screen.
      newest = `arrival_method_${run}`;
      const caused = performance.now();
      await api.trigger(newest, { actor: actor.id });
      await summaryInView(page, newest);
      arrivalTimes.push(performance.now() - caused);
      await context.close();
    }
    const medianOf = (values: number[]) =>
      [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    const newestMedian = medianOf(newestTimes);
    const reloadMedian = medianOf(reloadTimes);
    const arrivalMedian = medianOf(arrivalTimes);
    const listed = (values: number[]) => values.map((t) => t.toFixed(0)).join(", ");
    console.log(
      `newest message in view: new browser median ${newestMedian.toFixed(0)} ms (${listed(newestTimes)}); ` +
        `after a reload median ${reloadMedian.toFixed(0)} ms (${listed(reloadTimes)}); ` +
        `an arrival at the newest end, from its call, median ${arrivalMedian.toFixed(0)} ms ` +
        `(${listed(arrivalTimes)}) (target ${TARGET_MS} ms each)`,
    );
    if (Math.max(newestMedian, reloadMedian, arrivalMedian) > TARGET_MS) process.exitCode = 1;
    const walk = await loadEarlierAndSearch(browser, corral.url, stored);
    times.sort((a, b) => a - b);
    shells.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const shell = shells[Math.floor(shells.length / 2)]!;
    console.log(
      `fresh browser, /stream/error with ${events} retained: first message after ` +
        `median ${median.toFixed(0)} ms, slowest ${times.at(-1)!.toFixed(0)} ms ` +
        `(target ${TARGET_MS} ms; runs ${times.map((t) => t.toFixed(0)).join(", ")}); ` +
        `the page alone (its search field): median ${shell.toFixed(0)} ms`,
    );
    console.log(
      `load average: ${(await import("node:os"))
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    console.log(
      `Load earlier to the start: ${walk.pages} pages in ${walk.allMs.toFixed(0)} ms ` +
        `(a page: median ${walk.pageMedianMs.toFixed(0)} ms, slowest ${walk.pageSlowestMs.toFixed(0)} ms)`,
    );
    console.log(
      `server search for the oldest event's word: "${walk.searchCount}" after ${walk.searchMs.toFixed(0)} ms`,
    );
    console.log(
      `long tasks from the shell on: ${walk.longTasks.length}` +
        (walk.longTasks.length ? ` (longest ${Math.max(...walk.longTasks)} ms; target: none)` : ""),
    );
    if (median > TARGET_MS || walk.longTasks.length > 0) process.exitCode = 1;
  } finally {
    await browser.close();
    await corral.stop();
  }
}

/** Resolves once the summary line of the message with this routing key is on screen. */
async function summaryInView(page: Page, name: string): Promise<void> {
  await page.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('[data-testid="message-summary"]')].some((line) => {
        const top = line.getBoundingClientRect().top;
        const named = new RegExp(`${wanted}(?!\\d)`).test(line.textContent ?? "");
        return named && top >= 0 && top < window.innerHeight;
      }),
    name,
    { timeout: 30_000 },
  );
}

type Stored = { state: Record<string, unknown>; version: number };

/** Steps 2–4 in one new context: page back to the start, search on the server, long tasks. */
async function loadEarlierAndSearch(browser: Browser, url: string, stored: Stored) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript((value) => {
    localStorage.setItem("user-storage", value);
    const tasks: number[] = [];
    (window as unknown as { benchLongTasks: number[] }).benchLongTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(Math.round(entry.duration));
    }).observe({ type: "longtask" });
  }, JSON.stringify(stored));
  const page = await context.newPage();
  try {
    await page.goto(`${url}/stream/error`);
    await page.getByRole("searchbox", { name: "Search messages" }).waitFor({ timeout: 30_000 });
    // Long tasks of the page's own start (parsing, the first render) are not history's.
    await page.evaluate(() => {
      (window as unknown as { benchLongTasks: number[] }).benchLongTasks.length = 0;
    });
    await page.locator("main .json-tree").first().waitFor({ timeout: 30_000 });
    const button = page.getByRole("button", { name: "Load earlier" });
    const pageTimes: number[] = [];
    const allStarted = performance.now();
    while (!(await page.getByText("Everything the server keeps").isVisible())) {
      // The previous page's answer may still be coming: the button is enabled again, or the start
      // was reached (and the button stays disabled).
      await page.waitForFunction(
        () =>
          document.body.textContent?.includes("Everything the server keeps") ||
          [...document.querySelectorAll("button")].some(
            (b) => b.textContent === "Load earlier" && !b.disabled,
          ),
        undefined,
        { timeout: 30_000 },
      );
      if (await page.getByText("Everything the server keeps").isVisible()) break;
      const before = await page.getByTestId("shown-count").textContent();
      const started = performance.now();
      await button.click({ timeout: 30_000 });
      await page.waitForFunction(
        (text) => document.querySelector('[data-testid="shown-count"]')?.textContent !== text,
        before,
        { timeout: 30_000 },
      );
      pageTimes.push(performance.now() - started);
      if (pageTimes.length > 1_000) throw new Error("Load earlier never reached the start");
    }
    const allMs = performance.now() - allStarted;
    const longTasks = await page.evaluate(
      () => (window as unknown as { benchLongTasks: number[] }).benchLongTasks,
    );
    const searchStarted = performance.now();
    await page.getByRole("searchbox", { name: "Search messages" }).fill("needle_method");
    await page.waitForFunction(
      () =>
        /^1 of \d+/.test(document.querySelector('[data-testid="shown-count"]')?.textContent ?? ""),
      undefined,
      { timeout: 30_000 },
    );
    const searchMs = performance.now() - searchStarted;
    const searchCount = (await page.getByTestId("shown-count").textContent()) ?? "";
    pageTimes.sort((a, b) => a - b);
    return {
      pages: pageTimes.length,
      allMs,
      pageMedianMs: pageTimes[Math.floor(pageTimes.length / 2)] ?? 0,
      pageSlowestMs: pageTimes.at(-1) ?? 0,
      searchMs,
      searchCount,
      longTasks,
    };
  } finally {
    await context.close();
  }
}

await main();
