// Wave 3 "Streams remember what the server remembers": how soon a stream page on a browser that
// never saw the stream shows the newest messages the server keeps (target: within 1 s).
//
// `node bench/stream-history.bench.ts [--events 2000] [--runs 5]`
//
// A real `corral serve` on a fresh SQLite file serving the built console (`npm run build` first),
// one account whose error stream holds --events events (unknown methods, caused through /fe).
// Each run is a new Chromium context (empty IndexedDB) whose localStorage holds only the sign-in,
// opened straight at /stream/error: timed from navigation to the first message tree on screen.
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import {
  createCorralAccount,
  signIn,
  startCorral,
  tempSqliteDatabase,
} from "./lib/corral-process.ts";

const { values } = parseArgs({
  options: { events: { type: "string", default: "2000" }, runs: { type: "string", default: "5" } },
});
const events = Number(values.events);
const runs = Number(values.runs);
const TARGET_MS = 1_000;

async function main() {
  const database = tempSqliteDatabase();
  createCorralAccount(database, "bench", "bench-password");
  const corral = await startCorral({ database });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  try {
    const api = await signIn(corral.url, "bench", "bench-password");
    const actor = await api.createActor("historian");
    let next = 0;
    const worker = async () => {
      while (next < events) await api.trigger(`no_such_method_${next++}`, { actor: actor.id });
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const stored = {
      state: { token: api.token, actors: [], methodInformations: [], currentActor: actor.id },
      version: 0,
    };
    const times: number[] = [];
    const shells: number[] = [];
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
      await context.close();
    }
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
    if (median > TARGET_MS) process.exitCode = 1;
  } finally {
    await browser.close();
    await corral.stop();
  }
}

await main();
