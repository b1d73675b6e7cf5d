// Recording from cattle_grid's broker (issue 36, docs/proxy-history.md): `corral serve
// --upstream … --upstream-amqp …` as a child process, on SQLite and on PostgreSQL, while this
// process publishes cattle_grid-shaped events (`combined.NAME`, ≈ 1.3 KB each, 10 accounts) on a
// RabbitMQ vhost of its own at a steady rate. It keeps up when the events stored lag the events
// published by at most a second's worth throughout, and all are stored within 2 s of the last.
// Then a burst of as many at once shows how fast it drains a backlog.
//   node bench/recording.bench.ts [--rate 1000] [--seconds 20] [--setups sqlite,pg]

import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs, promisify } from "node:util";
import amqp from "amqplib";
import postgres from "postgres";
import { format } from "prettier";
import { DatabaseSync } from "node:sqlite";
import { checkPrerequisites, thisMachine } from "../test-peers/prerequisites.ts";
import { createTestDatabase } from "../server/test/db/postgres-test-database.ts";
import { startCorral, tempSqliteDatabase } from "../test-kit/corral-process.ts";
import { benchCli } from "./lib/corral-client.ts";
import { processCpuMs } from "./lib/process-cpu.ts";

const { values } = parseArgs({
  options: { rate: { type: "string" }, seconds: { type: "string" }, setups: { type: "string" } },
});
const RATE = Number(values.rate ?? 1000);
const SECONDS = Number(values.seconds ?? 20);
const SETUPS = (values.setups ?? "sqlite,pg").split(",");
const ACCOUNTS = 10;
const execFileAsync = promisify(execFile);

function event(n: number) {
  const actor = `http://cattle.bench/actor/a${n % ACCOUNTS}`;
  const sender = `https://peer${n % 20}.example/users/u${n % 50}`;
  const raw = {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${sender}/activities/${n}`,
    type: "Create",
    actor: sender,
    to: [actor],
    object: {
      id: `${sender}/notes/${n}`,
      type: "Note",
      attributedTo: sender,
      to: [actor],
      content: `<p>${`message ${n} `.repeat(40)}</p>`,
    },
  };
  return {
    key: `combined.acct${n % ACCOUNTS}`,
    body: Buffer.from(
      JSON.stringify({
        data: { raw, parsed: {} },
        actor,
        event_type: "incoming",
        history_id: randomUUID(),
      }),
    ),
  };
}

async function countStored(database: string): Promise<() => Promise<number>> {
  if (database.startsWith("sqlite:")) {
    const db = new DatabaseSync(database.slice("sqlite:".length), { readOnly: true });
    const query = db.prepare(`SELECT COUNT(*) AS n FROM events`);
    return async () => Number((query.get() as { n: number }).n);
  }
  const sql = postgres(database, { max: 1, onnotice: () => {} });
  return async () => Number((await sql`SELECT COUNT(*) AS n FROM events`)[0]!.n);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check: () => Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(50);
  }
}

async function runSetup(setup: string, rabbitmqctl: string) {
  const vhost = `corral_bench_${randomBytes(4).toString("hex")}`;
  const rabbit = (...args: string[]) =>
    execFileAsync(rabbitmqctl, ["--quiet", ...args], { timeout: 60_000 });
  await rabbit("add_vhost", vhost);
  const pg = setup === "pg" ? await createTestDatabase() : null;
  try {
    await rabbit("set_permissions", "-p", vhost, "guest", ".*", ".*", ".*");
    const amqpUrl = `amqp://guest:guest@127.0.0.1:5672/${vhost}`;
    const database = pg?.url ?? tempSqliteDatabase("corral-bench-");
    const corral = await startCorral({
      database,
      cli: benchCli,
      stderr: "inherit",
      args: [
        "--upstream",
        "http://127.0.0.1:9",
        "--upstream-amqp",
        amqpUrl,
        "--log-level",
        "error",
      ],
    });
    try {
      await waitUntil(
        async () => (await fetch(`${corral.url}/readyz`)).status === 200,
        30_000,
        "readyz",
      );
      const stored = await countStored(database);
      const connection = await amqp.connect(amqpUrl);
      const channel = await connection.createConfirmChannel();
      const cpuStart = processCpuMs(corral.pid);

      // Steady: RATE per second, published in 10 ms slices, lag sampled every 100 ms.
      const total = RATE * SECONDS;
      let published = 0;
      let maxLag = 0;
      const start = Date.now();
      const sampler = setInterval(async () => {
        const lag = published - (await stored());
        maxLag = Math.max(maxLag, lag);
      }, 100);
      while (published < total) {
        const due = Math.min(total, Math.floor(((Date.now() - start) / 1000) * RATE));
        while (published < due) {
          const { key, body } = event(published++);
          channel.publish("amq.topic", key, body, { persistent: true });
        }
        await sleep(10);
      }
      await channel.waitForConfirms();
      const lastPublished = Date.now();
      await waitUntil(async () => (await stored()) >= total, 60_000, "all stored");
      const tail = Date.now() - lastPublished;
      clearInterval(sampler);
      const cpuMs = processCpuMs(corral.pid) - cpuStart;
      const steady = {
        rate: RATE,
        seconds: SECONDS,
        published: total,
        maxLagEvents: maxLag,
        tailMs: tail,
        corralCpuMsPerEvent: cpuMs / total,
        keptUp: maxLag <= RATE && tail <= 2000,
      };

      // Burst: as many again published at once; how fast the backlog drains.
      const before = await stored();
      const burstStart = Date.now();
      for (let i = 0; i < total; i++) {
        const { key, body } = event(total + i);
        if (!channel.publish("amq.topic", key, body, { persistent: true }))
          await new Promise((resolve) => channel.once("drain", resolve));
      }
      await channel.waitForConfirms();
      await waitUntil(async () => (await stored()) >= before + total, 180_000, "burst stored");
      const burst = { events: total, perSecond: total / ((Date.now() - burstStart) / 1000) };
      await connection.close();
      return { setup, steady, burst };
    } finally {
      await corral.stop();
    }
  } finally {
    await rabbit("delete_vhost", vhost).catch(() => {});
    await pg?.drop();
  }
}

const { rabbitmqctl } = await checkPrerequisites(thisMachine());
const loadAverageAtStart = loadavg();
console.log(`load average at start: ${loadAverageAtStart.map((l) => l.toFixed(2)).join(" ")}`);
const results = [];
for (const setup of SETUPS) {
  const result = await runSetup(setup, rabbitmqctl);
  results.push(result);
  const { steady, burst } = result;
  console.log(
    `${setup}: ${steady.rate}/s for ${steady.seconds} s: lag at most ${steady.maxLagEvents} events, ` +
      `all stored ${steady.tailMs} ms after the last, ${steady.corralCpuMsPerEvent.toFixed(3)} ms ` +
      `Corral CPU per event: ${steady.keptUp ? "keeps up" : "FALLS BEHIND"}; ` +
      `a burst of ${burst.events} drains at ${Math.round(burst.perSecond)}/s`,
  );
}
mkdirSync(new URL("results/", import.meta.url), { recursive: true });
const file = new URL(
  `results/recording-${new Date().toISOString().replace(/[:.]/g, "-")}.json`,
  import.meta.url,
);
// Formatted as prettier would: `npm run check` reads bench/results too.
writeFileSync(
  file,
  await format(JSON.stringify({ loadAverageAtStart, results }), { parser: "json" }),
);
console.log(`saved ${file.pathname}`);
if (results.some((r) => !r.steady.keptUp)) process.exit(1);
process.exit(0);
