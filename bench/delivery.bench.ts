// Delivery and inbox at the speed of signing (issue 18): Node's single-core RSA-2048 signing rate,
// then the same loads on Corral (`corral serve` as a child process, driven through /fe) and on
// bare Fedify 2.3.6, both delivering to N sink actors on loopback. Prints one table and writes
// bench/results/delivery-<timestamp>.json.
//   node bench/delivery.bench.ts [--part delivery|inbox|all] [--sinks N] [--per-round K] [--rounds R]
//     [--inbox M] [--concurrency C] [--database URL|pg] [--corral-arg ARG ...] [--fedify-parallel P]
//     [--verify-sink]
//   BENCH_CPU_PROF=DIR also writes a V8 CPU profile of each server into DIR.

import { loadavg } from "node:os";
import postgres from "postgres";
import { parseArgs } from "node:util";
import { tempSqliteDatabase } from "../test-kit/corral-process.ts";
import { benchNote, startBenchCorral } from "./lib/corral-client.ts";
import {
  assertExactlyOnce,
  pause,
  runColdRound,
  runDeliveryRounds,
  showSplit,
  type ColdRound,
  type DeliveryRound,
  type DeliveryTarget,
} from "./lib/delivery-load.ts";
import { createTestDatabase } from "../server/test/db/postgres-test-database.ts";
import { startFedify } from "./lib/fedify-process.ts";
import { runInboxLoad, signedCreates, type InboxResult } from "./lib/inbox-load.ts";
import { processCpuMs } from "./lib/process-cpu.ts";
import { printAndSave } from "./lib/report.ts";
import { measureSignRate } from "./lib/sign-rate.ts";
import { startSink } from "./lib/sink.ts";
import { countStream } from "./lib/stream-counter.ts";

const { values } = parseArgs({
  options: {
    part: { type: "string", default: "all" },
    sinks: { type: "string", default: "500" },
    "per-round": { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    inbox: { type: "string", default: "3000" },
    concurrency: { type: "string", default: "64" },
    database: { type: "string" },
    "corral-arg": { type: "string", multiple: true, default: [] },
    "fedify-parallel": { type: "string" },
    "verify-sink": { type: "boolean", default: false },
    "refused-every": { type: "string", default: "0" },
    "corral-only": { type: "boolean", default: false },
  },
});
// BENCH_CPU_PROF=dir: both servers write a V8 CPU profile there when they stop.
const profile = process.env.BENCH_CPU_PROF
  ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
  : [];
const count = (flag: "sinks" | "per-round" | "rounds" | "inbox" | "concurrency") => {
  const n = Number(values[flag]);
  if (Number.isSafeInteger(n) && n > 0) return n;
  console.error(`delivery bench: --${flag} must be a whole number above 0, not "${values[flag]}"`);
  process.exit(2);
};
const PART = values.part;
if (PART !== "delivery" && PART !== "inbox" && PART !== "all") {
  console.error(`delivery bench: --part must be delivery, inbox or all, not "${PART}"`);
  process.exit(2);
}
const DELIVERY = PART !== "inbox";
const INBOX = PART !== "delivery";
const N = count("sinks");
const VERIFY = values["verify-sink"];
const load = { rounds: count("rounds"), perRound: count("per-round") };
const INBOX_N = count("inbox");
// Every Nth inbox POST has a Digest that is not its body's: refused (401), and recorded.
const REFUSED_EVERY = Number(values["refused-every"]);
if (!Number.isSafeInteger(REFUSED_EVERY) || REFUSED_EVERY < 0) {
  console.error(
    `delivery bench: --refused-every must be a whole number, not "${values["refused-every"]}"`,
  );
  process.exit(2);
}
const refusedAt = (i: number) => REFUSED_EVERY > 0 && (i + 1) % REFUSED_EVERY === 0;
const WRONG_DIGEST = "SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=";
const CONCURRENCY = count("concurrency");
// A cold round (K activities to actors not yet resolved), the warm-up, then R rounds of K.
const expectedPosts = N * (1 + (load.rounds + 1) * load.perRound);

const loadAverageAtStart = loadavg();
const signRate = measureSignRate();
console.log(`node:crypto RSA-2048 signatures on one core: ${Math.round(signRate)}/s`);

// Corral: an account by the CLI, an actor and sends through /fe, arrivals at the sink. The sink's
// actors are also the inbox load's senders (their keys are fetched from it).
const corralSink = await startSink(N, { verify: VERIFY });
// --database pg: a fresh PostgreSQL database on the test server (dropped at the end).
const freshPostgres = values.database === "pg" ? await createTestDatabase() : undefined;
const database = freshPostgres?.url ?? values.database ?? tempSqliteDatabase("corral-bench-");
const { corral, client, actor } = await startBenchCorral({
  name: "bench",
  database,
  stderr: "inherit",
  args: values["corral-arg"],
  nodeArgs: profile,
});
let corralDelivery: DeliveryRound[] | undefined;
let corralCold: ColdRound | undefined;
let corralFirst: ColdRound | undefined;
if (DELIVERY) {
  const target = {
    pid: corral.pid,
    activityId: (tag: string) => `${actor.id}/bench/${tag}`,
    send: async (activities: { id: string; to: string[] }[]) => {
      await Promise.all(
        activities.map(({ id, to }) =>
          client.trigger("send_message", { actor: actor.id, data: benchNote(id, actor.id, to) }),
        ),
      );
    },
  };
  corralFirst = await firstRound(target);
  corralCold = await runColdRound(target, corralSink, load);
  console.log(
    `Corral cold round: ${corralCold.actorGets} actor GETs for ${N} actors (at most ${corralCold.maxGetsPerActor} of one)`,
  );
  if (corralCold.maxGetsPerActor > 1)
    throw new Error("Corral fetched an actor's document more than once in the cold round");
  corralDelivery = await runDeliveryRounds(target, corralSink, load);
  console.log(`Corral CPU, cold round: ${showSplit(corralCold.split)}`);
  for (const [i, round] of corralDelivery.entries())
    console.log(`Corral CPU, warm round ${i + 1}: ${showSplit(round.split)}`);
  await pause(1000); // anything sent twice would arrive now
  await corralSink.checked();
  assertExactlyOnce(corralSink, expectedPosts, "Corral delivery", VERIFY);
}

let corralInbox: InboxResult | undefined;
if (INBOX) {
  const stream = await countStream(corral.url, client.token, "incoming");
  const warm = signedCreates(corralSink, actor.sharedInbox, actor.id, N, "inbox-warm-up");
  const inboxLoad = signedCreates(corralSink, actor.sharedInbox, actor.id, INBOX_N, "inbox");
  inboxLoad.posts.forEach((post, i) => {
    if (refusedAt(i)) post.headers.Digest = WRONG_DIGEST;
  });
  const acceptedIds = inboxLoad.ids.filter((_, i) => !refusedAt(i));
  const refusedN = INBOX_N - acceptedIds.length;
  await runInboxLoad(corral.pid, warm.posts, CONCURRENCY, () =>
    stream.waitForAll(warm.ids, 60_000),
  );
  const pgBefore = freshPostgres ? await postgresCpuMs(freshPostgres.url) : undefined;
  corralInbox = await runInboxLoad(corral.pid, inboxLoad.posts, CONCURRENCY, () =>
    stream.waitForAll(acceptedIds, 60_000),
  );
  await pause(500);
  if (pgBefore) {
    // PostgreSQL's own work for the load (its backends serving this database): not in the
    // server CPU above. Half a second after the load, then again once history's search copy
    // (made when appends pause, docs/history-search.md) has caught up, so that it is counted.
    const atEnd = await postgresCpuMs(freshPostgres!.url);
    const copyWaited = await searchCopyCaughtUp(freshPostgres!.url, 20_000);
    const afterCopy = await postgresCpuMs(freshPostgres!.url);
    const since = (now: Map<number, number>) => {
      let ms = 0;
      for (const [pid, cpu] of now) ms += cpu - (pgBefore.get(pid) ?? 0);
      return ms / INBOX_N;
    };
    console.log(
      `Corral inbox: PostgreSQL's backends for its database used ${since(atEnd).toFixed(2)} ms CPU/activity besides half a second after the load, ${since(afterCopy).toFixed(2)} ms once history's search copy had caught up (${copyWaited} ms after that)`,
    );
  }
  const onStream = stream.seen();
  console.log(
    `Corral inbox: ${corralInbox.rejected} of ${INBOX_N} not 2xx${refusedN ? ` (${refusedN} sent with a wrong Digest)` : ""}; ${onStream.distinct} activities on the incoming stream (warm-up ${N} + ${acceptedIds.length}), ${onStream.duplicates} twice; load generator CPU ${corralInbox.generatorCpuMsPerActivity.toFixed(2)} ms/activity`,
  );
  if (
    corralInbox.rejected !== refusedN ||
    onStream.duplicates ||
    onStream.distinct !== N + acceptedIds.length
  )
    throw new Error("Corral's inbox lost, refused or doubled activities");
  stream.close();
}
await corral.stop();
await corralSink.close();

// Bare Fedify: the same loads from its own process, to a fresh sink.
// --corral-only leaves it out (paired runs of one change to Corral).
const FEDIFY = !values["corral-only"];
const fedifySink = FEDIFY ? await startSink(N, { verify: VERIFY }) : undefined;
const fedify = FEDIFY
  ? await startFedify(
      values["fedify-parallel"] ? ["--parallel", values["fedify-parallel"]] : [],
      profile,
    )
  : undefined;
let fedifyDelivery: DeliveryRound[] | undefined;
let fedifyCold: ColdRound | undefined;
let fedifyFirst: ColdRound | undefined;
if (fedify && fedifySink && DELIVERY) {
  const target = {
    pid: fedify.pid,
    activityId: (tag: string) => `${fedify.actorId}/bench/${tag}`,
    send: fedify.send,
  };
  fedifyFirst = await firstRound(target);
  fedifyCold = await runColdRound(target, fedifySink, load);
  fedifyDelivery = await runDeliveryRounds(target, fedifySink, load);
  await pause(1000);
  await fedifySink.checked();
  assertExactlyOnce(fedifySink, expectedPosts, "bare Fedify delivery", VERIFY);
}

let fedifyInbox: InboxResult | undefined;
if (fedify && fedifySink && INBOX) {
  const warm = signedCreates(fedifySink, fedify.sharedInbox, fedify.actorId, N, "inbox-warm-up");
  const inboxLoad = signedCreates(fedifySink, fedify.sharedInbox, fedify.actorId, INBOX_N, "inbox");
  await runInboxLoad(fedify.pid, warm.posts, CONCURRENCY, () =>
    fedify.waitForReceived(warm.ids, 60_000),
  );
  fedifyInbox = await runInboxLoad(fedify.pid, inboxLoad.posts, CONCURRENCY, () =>
    fedify.waitForReceived(inboxLoad.ids, 120_000),
  );
  await pause(500);
  const received = await fedify.received();
  console.log(
    `bare Fedify inbox: ${fedifyInbox.rejected} of ${INBOX_N} not 2xx; ${received.distinct} activities reached its listener (warm-up ${N} + ${INBOX_N}), ${received.duplicates} twice; load generator CPU ${fedifyInbox.generatorCpuMsPerActivity.toFixed(2)} ms/activity`,
  );
  if (fedifyInbox.rejected || received.duplicates || received.distinct !== N + INBOX_N)
    throw new Error("bare Fedify's inbox lost, refused or doubled activities");
}
await fedify?.stop();
await fedifySink?.close();

await freshPostgres?.drop();

await printAndSave({
  setup: {
    part: PART,
    sinks: N,
    ...load,
    inbox: INBOX_N,
    concurrency: CONCURRENCY,
    database,
    corralArgs: values["corral-arg"],
    fedifyParallel: values["fedify-parallel"] ?? null,
    verifySink: VERIFY,
    refusedEvery: REFUSED_EVERY,
  },
  loadAverageAtStart,
  signRate,
  corral: { delivery: corralDelivery, first: corralFirst, cold: corralCold, inbox: corralInbox },
  fedify: { delivery: fedifyDelivery, first: fedifyFirst, cold: fedifyCold, inbox: fedifyInbox },
});

/** Waits until every stream's events are in history's search copy; how long it waited (ms). */
async function searchCopyCaughtUp(url: string, timeoutMs: number): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const start = Date.now();
  try {
    for (;;) {
      const [row] = await sql<{ behind: number }[]>`
        SELECT COUNT(*)::int AS behind FROM event_streams s
        LEFT JOIN event_search_marks m ON m.account_id = s.account_id AND m.stream = s.stream
        WHERE s.seq > COALESCE(m.indexed_seq, 0)`;
      if (row!.behind === 0) return Date.now() - start;
      if (Date.now() - start > timeoutMs)
        throw new Error(`history's search copy had not caught up ${timeoutMs} ms after the load`);
      await pause(50);
    }
  } finally {
    await sql.end();
  }
}

/** CPU so far (ms) of each PostgreSQL backend connected to the database at `url`, by pid. */
async function postgresCpuMs(url: string): Promise<Map<number, number>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    return new Map(rows.map((row) => [row.pid, processCpuMs(row.pid)]));
  } finally {
    await sql.end();
  }
}

/**
 * A server's first round after it starts, to N new actors on a sink of their own (another host):
 * its code is compiled, its threads and connections opened. The cold round after it then measures
 * what new actors cost a running server, which is what a server meets: a process starts once.
 */
async function firstRound(target: DeliveryTarget): Promise<ColdRound> {
  const sink = await startSink(N);
  try {
    return await runColdRound(target, sink, load);
  } finally {
    await sink.close();
  }
}
