// The speed guard (issue 34): this checkout's Corral against a pinned reference build (the commit
// in bench/speed-reference, unpacked once by lib/reference-build.ts), under the same inbox and
// delivery loads as delivery.bench.ts, taken in turn. Both servers run at once, on their own
// SQLite files, with one sink of remote actors; each pair of rounds alternates which goes first.
// The figure is the server's CPU per operation (its threads' time on a CPU, from /proc), which a loaded machine disturbs far less than the rate; the guard fails when the
// median over the pairs of this checkout's / the reference's is above --limit, for either load.
//   node bench/speed-guard.ts [--pairs 6] [--inbox 1000] [--sinks 50] [--per-round 24]
//     [--concurrency 32] [--limit 1.10] [--reference COMMIT] [--prepare]
// Run by server/test/speed-guard.test.ts in `npm test`; see bench/README.md.

import { loadavg } from "node:os";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CorralProcess } from "../test-kit/corral-process.ts";
import { benchNote, startBenchCorral } from "./lib/corral-client.ts";
import { runInboxLoad, signedCreates } from "./lib/inbox-load.ts";
import { cpuSettled, processCpuMs } from "./lib/process-cpu.ts";
import { referenceCli, ROOT } from "./lib/reference-build.ts";
import { startSink, type Sink } from "./lib/sink.ts";
import { countStream, type StreamCounter } from "./lib/stream-counter.ts";

const { values } = parseArgs({
  options: {
    pairs: { type: "string", default: "6" },
    inbox: { type: "string", default: "1000" },
    sinks: { type: "string", default: "50" },
    "per-round": { type: "string", default: "24" },
    concurrency: { type: "string", default: "32" },
    limit: { type: "string", default: "1.10" },
    // Another commit to compare with than bench/speed-reference's (paired runs of one change).
    reference: { type: "string" },
    // Only unpack (and install) the reference build, then stop: the test does this first, under
    // a time limit of its own, so that the measured run's limit is not spent on `npm ci`.
    prepare: { type: "boolean", default: false },
  },
});
const number = (flag: Exclude<keyof typeof values, "reference" | "prepare">) => {
  const n = Number(values[flag]);
  if (Number.isFinite(n) && n > 0) return n;
  console.error(`speed guard: --${flag} must be a number above 0, not "${String(values[flag])}"`);
  process.exit(2);
};
const PAIRS = number("pairs");
const INBOX = number("inbox");
const SINKS = number("sinks");
const PER_ROUND = number("per-round");
const CONCURRENCY = number("concurrency");
const LIMIT = number("limit");

interface Server {
  name: string;
  logFile: string;
  corral: CorralProcess;
  actor: { id: string; sharedInbox: string };
  trigger: (method: string, body: Record<string, unknown>) => Promise<unknown>;
  stream: StreamCounter;
  inboxCpu: number[];
  deliveryCpu: number[];
  rounds: number;
}

async function start(name: string, cli: string, dir: string): Promise<Server> {
  // Its request log goes to a file (printed when the guard fails), not between the figures.
  const logFile = join(dir, `${name.replace(/\W+/g, "-")}.log`);
  const { corral, client, actor } = await startBenchCorral({
    name: "guard",
    database: `sqlite:${join(dir, `${name}.sqlite`)}`,
    cli,
    stderr: openSync(logFile, "w"),
  });
  const stream = await countStream(corral.url, client.token, "incoming");
  return {
    name,
    logFile,
    corral,
    actor,
    trigger: client.trigger,
    stream,
    inboxCpu: [],
    deliveryCpu: [],
    rounds: 0,
  };
}

async function inboxRound(server: Server, sink: Sink, tag: string, count: number) {
  const load = signedCreates(sink, server.actor.sharedInbox, server.actor.id, count, tag);
  const result = await runInboxLoad(server.corral.pid, load.posts, CONCURRENCY, () =>
    server.stream.waitForAll(load.ids, 120_000),
  );
  if (result.rejected) throw new Error(`${server.name}: ${result.rejected} inbox POSTs not 2xx`);
  await cpuSettled(server.corral.pid);
  return result.cpuMsPerActivity;
}

async function deliveryRound(server: Server, sink: Sink, tag: string, perRound: number) {
  const ids = Array.from({ length: perRound }, (_, k) => `${server.actor.id}/guard/${tag}-${k}`);
  const cpuBefore = processCpuMs(server.corral.pid);
  await Promise.all(
    ids.map((id) =>
      server.trigger("send_message", {
        actor: server.actor.id,
        data: benchNote(id, server.actor.id, sink.actorIds, "guard"),
      }),
    ),
  );
  await sink.waitForAll(ids, 120_000);
  await cpuSettled(server.corral.pid);
  return (processCpuMs(server.corral.pid) - cpuBefore) / (ids.length * sink.actorIds.length);
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const log = (line: string) => console.log(line);
const began = performance.now();
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(1)} s`;
// A stop from outside (the test's time limit) still stops the servers (killOnExit).
process.once("SIGTERM", () => process.exit(143));
const { commit, cli: referenceCliPath } = referenceCli(log, values.reference);
if (values.prepare) {
  log(`speed guard: the reference ${commit.slice(0, 10)} is ready (${elapsed()})`);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), "corral-speed-guard-"));
const sink = await startSink(SINKS);
const servers: Server[] = [];
let failed = false;
try {
  servers.push(await start("this checkout", join(ROOT, "server/src/cli.ts"), dir));
  servers.push(await start(`reference ${commit.slice(0, 10)}`, referenceCliPath, dir));
  const [current, reference] = servers as [Server, Server];
  // Warm-up: every sender's key fetched, every sink actor resolved, the code paths compiled.
  for (const server of servers) {
    await inboxRound(server, sink, "warm-up", Math.max(SINKS, 300));
    await deliveryRound(server, sink, "warm-up", 2);
  }
  log(`speed guard: both servers started and warmed up after ${elapsed()}`);
  const load = loadavg()[0]!.toFixed(1);
  for (let pair = 0; pair < PAIRS; pair++) {
    const order = pair % 2 === 0 ? [current, reference] : [reference, current];
    for (const server of order)
      server.inboxCpu.push(await inboxRound(server, sink, `pair-${pair}`, INBOX));
    for (const server of order)
      server.deliveryCpu.push(await deliveryRound(server, sink, `pair-${pair}`, PER_ROUND));
  }
  const report = (what: string, cpu: (s: Server) => number[]) => {
    const ratios = current.inboxCpu.map((_, i) => cpu(current)[i]! / cpu(reference)[i]!);
    const ratio = median(ratios);
    console.log(
      `speed guard, ${what}: this checkout ${median(cpu(current)).toFixed(3)} ms, reference ${commit.slice(0, 10)} ${median(cpu(reference)).toFixed(3)} ms (medians); paired ratio median ${ratio.toFixed(3)} (pairs ${ratios.map((r) => r.toFixed(2)).join(" ")}; limit ${LIMIT.toFixed(2)})`,
    );
    if (ratio > LIMIT) {
      failed = true;
      console.error(
        `speed guard: server CPU per ${what.split(" ").pop()} is ${((ratio - 1) * 100).toFixed(0)}% above the reference's (limit ${((LIMIT - 1) * 100).toFixed(0)}%)`,
      );
    }
  };
  console.log(
    `speed guard: ${PAIRS} pairs in ${elapsed()}; inbox ${INBOX} signed Creates from ${SINKS} actors, ${CONCURRENCY} in flight; delivery ${PER_ROUND} activities to ${SINKS} inboxes; load average ${load} at the start`,
  );
  report("server CPU per inbox activity", (s) => s.inboxCpu);
  report("server CPU per delivery", (s) => s.deliveryCpu);
} catch (error) {
  for (const server of servers) {
    const tail = readFileSync(server.logFile, "utf8").split("\n").slice(-20).join("\n");
    console.error(`speed guard: the last lines of ${server.name}'s log:\n${tail}`);
  }
  throw error;
} finally {
  for (const server of servers) {
    server.stream.close();
    await server.corral.stop();
  }
  await sink.close();
  rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exit(1);
