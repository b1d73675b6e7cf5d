// Paired delivery rounds (issue 34): this checkout's Corral and another build's at once, on their
// own SQLite files, one sink of N actors, K activities to all of them per round, the servers
// taking turns (the order alternating by pair). Each round's figure is the server's CPU per
// delivery, split by thread (main, signing threads, the rest) and read once its CPU stands still
// after the round, so the tail of outcome writes is in it. On a machine others load, the paired
// ratio moves far less than either rate.
//   node bench/delivery-pairs.ts OTHER_CLI [--pairs 8] [--sinks 500] [--per-round 10]
// OTHER_CLI: another checkout's (or an unpacked commit's) server/src/cli.ts.

import { mkdtempSync, openSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CorralProcess } from "../test-kit/corral-process.ts";
import { benchNote, startBenchCorral } from "./lib/corral-client.ts";
import { cpuSettled, threadCpuMs } from "./lib/process-cpu.ts";
import { startSink } from "./lib/sink.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pairs: { type: "string", default: "8" },
    sinks: { type: "string", default: "500" },
    "per-round": { type: "string", default: "10" },
  },
});
const otherCli = positionals[0];
if (!otherCli) {
  console.error(
    "usage: node bench/delivery-pairs.ts OTHER_CLI [--pairs 8] [--sinks 500] [--per-round 10]",
  );
  process.exit(2);
}
const PAIRS = Number(values.pairs);
const SINKS = Number(values.sinks);
const PER_ROUND = Number(values["per-round"]);

const dir = mkdtempSync(join(tmpdir(), "corral-delivery-pairs-"));
const sink = await startSink(SINKS);

interface Side {
  name: string;
  corral: CorralProcess;
  trigger: (method: string, body: Record<string, unknown>) => Promise<unknown>;
  actorId: string;
  rounds: Array<{ main: number; signing: number; other: number; total: number; rate: number }>;
}

async function start(name: string, cli: string): Promise<Side> {
  const { corral, client, actor } = await startBenchCorral({
    name: "pairs",
    database: `sqlite:${join(dir, `${name}.sqlite`)}`,
    cli,
    stderr: openSync(join(dir, `${name}.log`), "w"),
  });
  return { name, corral, trigger: client.trigger, actorId: actor.id, rounds: [] };
}

function parts(pid: number) {
  const p = { main: 0, signing: 0, other: 0 };
  for (const [name, ms] of threadCpuMs(pid)) {
    if (name === "MainThread") p.main += ms;
    else if (name === "corral-sign") p.signing += ms;
    else p.other += ms;
  }
  return p;
}

async function round(side: Side, tag: string, perRound: number, recorded: boolean) {
  const ids = Array.from({ length: perRound }, (_, k) => `${side.actorId}/pairs/${tag}-${k}`);
  const before = parts(side.corral.pid);
  const started = performance.now();
  await Promise.all(
    ids.map((id) =>
      side.trigger("send_message", {
        actor: side.actorId,
        data: benchNote(id, side.actorId, sink.actorIds, "pair"),
      }),
    ),
  );
  const last = await sink.waitForAll(ids, 300_000);
  await cpuSettled(side.corral.pid);
  const after = parts(side.corral.pid);
  const n = perRound * SINKS;
  if (!recorded) return;
  const main = (after.main - before.main) / n;
  const signing = (after.signing - before.signing) / n;
  const other = (after.other - before.other) / n;
  side.rounds.push({
    main,
    signing,
    other,
    total: main + signing + other,
    rate: n / ((last - started) / 1000),
  });
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const sides: Side[] = [];
try {
  sides.push(await start("this checkout", join(import.meta.dirname, "../server/src/cli.ts")));
  sides.push(await start("other", otherCli));
  const [current, other] = sides as [Side, Side];
  console.log(`delivery pairs: load average ${loadavg()[0]!.toFixed(1)} at the start`);
  // Warm-up: every sink actor resolved, the code paths compiled, the signing threads started.
  for (const side of sides) {
    await round(side, "warm-up", 1, false);
    await round(side, "warm-up-2", PER_ROUND, false);
  }
  for (let pair = 0; pair < PAIRS; pair++)
    for (const side of pair % 2 ? [other, current] : [current, other])
      await round(side, `pair-${pair}`, PER_ROUND, true);
  for (const side of sides) {
    const m = (pick: (r: Side["rounds"][number]) => number) =>
      median(side.rounds.map(pick)).toFixed(3);
    console.log(
      `${side.name}: server CPU ${m((r) => r.total)} ms/delivery (main ${m((r) => r.main)}, signing threads ${m((r) => r.signing)}, other threads ${m((r) => r.other)}; medians); rate median ${Math.round(median(side.rounds.map((r) => r.rate)))}/s`,
    );
  }
  const ratios = current.rounds.map((r, i) => r.total / other.rounds[i]!.total);
  console.log(
    `delivery pairs: this checkout / other, server CPU per delivery: median ${median(ratios).toFixed(3)} (pairs ${ratios.map((r) => r.toFixed(2)).join(" ")}); load average ${loadavg()[0]!.toFixed(1)} at the end`,
  );
} finally {
  for (const side of sides) await side.corral.stop();
  await sink.close();
  rmSync(dir, { recursive: true, force: true });
}
