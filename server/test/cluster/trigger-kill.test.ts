import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/accounts/index.ts";
import { createActor } from "../../src/actors/index.ts";
import type { Db } from "../../src/db/db.ts";
import { openDatabase } from "../../src/db/open.ts";
import { startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";
import { createTestDatabase, type TestDatabase } from "../db/postgres-test-database.ts";
import { startSlowSink, type SlowSink } from "../slow-sink.ts";
import { signIn } from "../../../test-kit/sign-in.ts";

// Issue 25, item 1, with real processes: web×2 + worker on one PostgreSQL take a burst of 1,000
// send_message triggers; mid-burst one web process and the worker are killed -9, then both are
// started again. Every trigger that answered 202 must end done, with its delivery delivered: a
// serialization failure or a killed run is run again, never ended as failed. The workers take a
// 10 s lease (--claim-lease) rather than the default 30 s, which the killed one's claims would
// otherwise hold the test for (background.test.ts checks that `corral serve` takes 30 s).

const ORIGIN = "http://corral.trigger-kill";
const SINKS = 10;
const TRIGGERS = 1_000;
const LEASE = ["--claim-lease", "10"];

let database: TestDatabase;
let db: Db;
let sink: SlowSink;
let processes: CorralProcess[] = [];
let actorId: string;
let common: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await startSlowSink(SINKS, 50);
  ({ db } = await openDatabase(database.url, { pool: 2 }));
  const account = await createAccount(db, { name: "t", password: "t-password", admin: true });
  if (!account.ok) throw new Error(account.error);
  const actor = await createActor(db, { accountId: account.account.id, baseUrl: ORIGIN });
  if (!actor.ok) throw new Error(actor.error);
  actorId = actor.actor.id;
  common = ["--database", database.url, "--base-url", ORIGIN];
  processes = await Promise.all([
    startCorral({ port: 0, args: [...common, "--role", "web"] }),
    startCorral({ port: 0, args: [...common, "--role", "web"] }),
    startCorral({ port: 0, args: [...common, "--role", "worker", ...LEASE] }),
  ]);
}, 180_000); // processes that start slowly on a loaded machine (test-kit/corral-process.ts)

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await sink?.close();
  await db?.close();
  await database?.drop();
});

describe("web×2 + worker on one PostgreSQL, killed mid-burst of triggers", () => {
  it("delivers every trigger that answered 202 after kill -9 of a web process and the worker", async () => {
    const [web1, web2, worker] = processes as [CorralProcess, CorralProcess, CorralProcess];
    const token = await signIn(web1, "t");
    const answered: string[] = [];
    let refused = 0;
    let killed = false;
    let next = 0;
    const send = async (k: number) => {
      const target = k % 2 === 0 || killed ? web1 : web2;
      const data = {
        id: `${actorId}/burst/${k}`,
        type: "Create",
        actor: actorId,
        to: [sink.actorIds[k % SINKS]],
        object: { type: "Note", content: `burst ${k}` },
      };
      try {
        const response = await fetch(`${target.url}/fe/actor/trigger/send_message`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ actor: actorId, data }),
        });
        if (response.status === 202) answered.push(response.headers.get("corral-trigger-id")!);
        else refused++;
      } catch {
        refused++; // the killed process: no answer, so nothing promised
      }
    };
    const senders = Array.from({ length: 32 }, async () => {
      while (next < TRIGGERS) {
        const k = next++;
        if (k === 400) {
          killed = true;
          await Promise.all([web2.kill(), worker.kill()]);
        }
        await send(k);
      }
    });
    await Promise.all(senders);
    expect(answered.length).toBeGreaterThan(TRIGGERS / 2);
    processes = [
      web1,
      ...(await Promise.all([
        startCorral({ port: 0, args: [...common, "--role", "web"] }),
        startCorral({ port: 0, args: [...common, "--role", "worker", ...LEASE] }),
      ])),
    ];

    const undelivered = async () => {
      const rows = await db.all<{ id: string }>(
        `SELECT id FROM triggers t WHERE state <> 'done' OR NOT EXISTS
           (SELECT 1 FROM deliveries d WHERE d.trigger_id = t.id AND d.state = 'delivered')`,
      );
      const open = new Set(rows.map((r) => r.id));
      return answered.filter((id) => open.has(id));
    };
    // Claims of the killed worker run out within 10 s; then everything is run and delivered. A
    // loaded machine delivers slowly, so the wait lasts while deliveries progress, and ends when
    // none was made for a minute (six times the lease): stuck, not slow.
    let left = await undelivered();
    let progressAt = Date.now();
    while (left.length > 0 && Date.now() - progressAt < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await undelivered();
      if (now.length < left.length) progressAt = Date.now();
      left = now;
    }
    const failed = await db.all<{ id: string; error: string }>(
      `SELECT id, error FROM triggers WHERE state = 'failed'`,
    );
    console.log(
      `${answered.length} of ${TRIGGERS} triggers answered 202 (${refused} not), ` +
        `${left.length} not delivered, ${failed.length} failed, ${sink.duplicates()} POSTs twice`,
    );
    expect(failed).toEqual([]);
    expect(left).toEqual([]);
    expect(sink.arrived()).toBeGreaterThanOrEqual(answered.length);
  }, 900_000);
});
