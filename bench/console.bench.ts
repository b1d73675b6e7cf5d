// Console benchmarks in Chromium: (a) JsonTree mount time for an object of 10,000 keys;
// (b) 10,000 stream messages at 200/s through the real SSE client into the stream page: the
// longest main-thread task and whether all are held (in memory and in IndexedDB).
// Needs a built console (npm run build); builds nothing itself.
// Run: node bench/console.bench.ts [--dist console/dist] [--messages 10000] [--rate 200]
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, stat } from "node:fs/promises";
import { loadavg } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const { values } = parseArgs({
  options: {
    dist: { type: "string", default: resolve(import.meta.dirname, "../console/dist") },
    messages: { type: "string", default: "10000" },
    rate: { type: "string", default: "200" },
    keys: { type: "string", default: "10000" },
  },
});
const dist = resolve(values.dist);
const messageCount = Number(values.messages);
const ratePerSecond = Number(values.rate);

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".map": "application/json",
  ".svg": "image/svg+xml",
};

function sampleMessage(n: number) {
  const type = ["Create", "Like", "Announce", "Follow", "Undo"][n % 5];
  const actor = `https://remote.example/users/user${n % 97}`;
  return {
    event_type: "incoming",
    actor: "https://corral.example/actors/bench",
    data: {
      raw: {
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${actor}/activities/${n}`,
        type,
        actor,
      },
      parsed: {
        activity: {
          "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
          id: `${actor}/activities/${n}`,
          type,
          actor,
          to: ["https://www.w3.org/ns/activitystreams#Public"],
          object: {
            id: `${actor}/notes/${n}`,
            type: "Note",
            content: `<p>Message number ${n}</p>`,
            attributedTo: actor,
          },
          published: new Date(1_700_000_000_000 + n * 1000).toISOString(),
        },
        signature: {
          type: "RsaSignature2017",
          creator: `${actor}#main-key`,
          signatureValue: "x".repeat(344),
        },
      },
    },
  };
}

/** 200/s on /fe/account/stream/incoming (ids 1…N); the other streams stay open and quiet. */
function serveStream(request: IncomingMessage, response: ServerResponse, done: () => void) {
  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
  response.flushHeaders();
  if (!request.url?.endsWith("/incoming")) return;
  const started = Date.now();
  let sent = Number(request.headers["last-event-id"] ?? 0);
  const timer = setInterval(() => {
    const due = Math.min(messageCount, Math.floor(((Date.now() - started) / 1000) * ratePerSecond));
    let chunk = "";
    for (; sent < due; sent++)
      chunk += `id: ${sent + 1}\ndata: ${JSON.stringify(sampleMessage(sent + 1))}\n\n`;
    if (chunk) response.write(chunk);
    if (sent >= messageCount) {
      clearInterval(timer);
      done();
    }
  }, 5);
  request.on("close", () => clearInterval(timer));
}

async function serveFile(path: string, response: ServerResponse) {
  const file = normalize(join(dist, path === "/" ? "index.html" : path));
  if (!file.startsWith(dist) || !(await stat(file).catch(() => null))?.isFile()) {
    response.writeHead(404).end("not found");
    return;
  }
  response.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
  response.end(await readFile(file));
}

async function main() {
  if (!(await stat(join(dist, "bench.html")).catch(() => null))) {
    throw new Error(`${dist}/bench.html is missing: run \`npm run build\` first`);
  }
  let streamDone!: () => void;
  const allSent = new Promise<void>((resolve) => (streamDone = resolve));
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (path.startsWith("/fe/account/stream/")) return serveStream(request, response, streamDone);
    void serveFile(path, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
    await page.waitForTimeout(500);
    const started = Date.now();
    // The trace gives each main-thread task's CPU time beside its wall time: on a shared machine
    // a task's wall time includes waiting for a core, which the longtask API cannot tell apart.
    await browser.startTracing(page, { categories: ["disabled-by-default-devtools.timeline"] });
    await page.evaluate(() => (window as unknown as BenchWindow).corralBench.connectStreams());
    await allSent;
    const seconds = (Date.now() - started) / 1000;
    await page.waitForTimeout(1000);
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
    const ok = result.held === messageCount && stored === messageCount && tasks.overCpu === 0;
    console.log(ok ? "aims met: all held, no main-thread task over 50 ms of CPU" : "aims NOT met");
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
  };
};

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
};

function summariseMainThreadTasks(trace: Buffer) {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
  const mainThreads = new Set(
    traceEvents
      .filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = traceEvents.filter(
    (e) => e.name === "RunTask" && e.ph === "X" && mainThreads.has(`${e.pid}:${e.tid}`),
  );
  const wall = tasks.map((e) => (e.dur ?? 0) / 1000);
  const cpu = tasks.map((e) => (e.tdur ?? 0) / 1000);
  return {
    count: tasks.length,
    longestWallMs: Math.max(0, ...wall),
    longestCpuMs: Math.max(0, ...cpu),
    overWall: wall.filter((ms) => ms > 50).length,
    overCpu: cpu.filter((ms) => ms > 50).length,
    busyCpuMs: cpu.reduce((sum, ms) => sum + ms, 0),
    // When they happened tells start-up (mount, first compile) from steady streaming.
    overCpuAt: tasks
      .filter((e) => (e.tdur ?? 0) > 50_000)
      .map(
        (e) =>
          `${((e.ts - tasks[0]!.ts) / 1000).toFixed(0)} ms in: ${((e.tdur ?? 0) / 1000).toFixed(0)} ms CPU`,
      ),
  };
}

await main();
