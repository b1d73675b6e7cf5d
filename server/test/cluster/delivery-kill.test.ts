import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/accounts/index.ts";
import { createActor } from "../../src/actors/index.ts";
import type { Db } from "../../src/db/db.ts";
import { openDatabase } from "../../src/db/open.ts";
import { startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";
import { createTestDatabase, type TestDatabase } from "../db/postgres-test-database.ts";
import { startSlowSink, type SlowSink } from "../slow-sink.ts";
import { signIn } from "../../../test-kit/sign-in.ts";

// Issue 15 / docs/operations.md#several-processes-on-one-postgresql with real processes: one
// `--role web` takes the sends, two `--role worker` deliver them to a loopback sink; one worker is
// killed -9 mid-way. Its claims pass to the other when their lease runs out, so everything
// arrives, and only what it had in flight (at most the queue's concurrency, 64) can arrive twice.
// The workers take a 10 s lease (--claim-lease) rather than the default 30 s: the test waits it
// out, and 10 s still leaves a live worker three renewals' time (background.test.ts checks that
// `corral serve` takes 30 s unless told).

const ORIGIN = "http://corral.kill";
const SINKS = 50;
const ACTIVITIES = 20; // × SINKS = 1,000 deliveries
const CONCURRENCY = 64;
const LEASE_S = 10;

let database: TestDatabase;
let db: Db;
let sink: SlowSink;
let web: CorralProcess;
let workers: CorralProcess[] = [];
let actorId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  // Answers held 300 ms: a worker always has deliveries in flight while the queue is full.
  sink = await startSlowSink(SINKS, 300);
  ({ db } = await openDatabase(database.url, { pool: 2 }));
  const account = await createAccount(db, { name: "k", password: "k-password", admin: true });
  if (!account.ok) throw new Error(account.error);
  const actor = await createActor(db, {
    accountId: account.account.id,
    baseUrl: ORIGIN,
    handle: "k",
  });
  if (!actor.ok) throw new Error(actor.error);
  actorId = actor.actor.id;
  const common = ["--database", database.url, "--base-url", ORIGIN];
  [web, ...workers] = await Promise.all([
    startCorral({ port: 0, args: [...common, "--role", "web"] }),
    startCorral({ port: 0, args: [...common, "--role", "worker", "--claim-lease", `${LEASE_S}`] }),
    startCorral({ port: 0, args: [...common, "--role", "worker", "--claim-lease", `${LEASE_S}`] }),
  ]);
}, 180_000); // processes that start slowly on a loaded machine (test-kit/corral-process.ts)

afterAll(async () => {
  await Promise.all([web, ...workers].filter(Boolean).map((p) => p.stop()));
  await sink?.close();
  await db?.close();
  await database?.drop();
});

const count = async (where: string, params: unknown[] = []) =>
  Number((await db.get<{ n: number }>(`SELECT count(*) AS n FROM deliveries ${where}`, params))!.n);

async function waitFor(what: string, ready: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("web + worker×2 on one PostgreSQL, delivering to a loopback sink", () => {
  it("delivers all 1,000 within 60 s of a worker's kill -9, re-sending at most what it had in flight", async () => {
    const token = await signIn(web, "k");
    const sends = Array.from({ length: ACTIVITIES }, async (_, k) => {
      const id = `${actorId}/kill/${k}`;
      const data = { id, type: "Create", actor: actorId, to: sink.actorIds };
      const response = await fetch(`${web.url}/fe/actor/trigger/send_message`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ actor: actorId, data: { ...data, object: { type: "Note" } } }),
      });
      expect(response.status).toBe(202);
    });
    await Promise.all(sends);
    const total = SINKS * ACTIVITIES;

    await waitFor("a fifth of the deliveries arrived", () => sink.arrived() >= total / 5, 30_000);
    // Every claim so far was made (or renewed) before this read ends, so for --claim-lease at most.
    const leasedUntil = Number(
      (await db.get<{ until: number }>(`SELECT max(locked_until) AS until FROM deliveries`))!.until,
    );
    expect(leasedUntil).toBeLessThanOrEqual(Date.now() + LEASE_S * 1000);
    const arrivedAtKill = sink.arrived();
    const openAtKill = sink.open();
    await workers[0]!.kill();
    const killedAt = Date.now();
    // The dead worker's unfinished rows keep their lease: counted now, with the other's, they
    // bound what it had in flight, and so what can arrive twice.
    const inFlight = await count("WHERE state IN ('queued', 'retrying') AND locked_until > ?", [
      killedAt,
    ]);
    expect(arrivedAtKill).toBeLessThan(total);

    await waitFor("every delivery arrived", () => sink.arrived() === total, 60_000);
    const arrivedAfter = Date.now() - killedAt;
    // Re-sends of what had arrived come with the rest; the rows say when all have ended.
    await waitFor(
      "every delivery recorded as delivered",
      async () => (await count("WHERE state = 'delivered'")) === total,
      60_000 - arrivedAfter,
    );
    console.log(
      `kill -9 after ${arrivedAtKill} of ${total} arrived (${openAtKill} answers pending at the sink, ` +
        `${inFlight} leased just after it); all arrived ${arrivedAfter} ms later, ` +
        `${sink.duplicates()} twice`,
    );
    expect(await count("WHERE state <> 'delivered'")).toBe(0);
    expect(sink.duplicates()).toBeLessThanOrEqual(Math.min(CONCURRENCY, inFlight));
  }, 120_000);
});
