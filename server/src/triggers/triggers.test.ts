import { afterEach, describe, expect, it } from "vitest";
import { addAccount, startTestServer, type TestServer } from "../../test/server.ts";
import { createActor } from "../actors/index.ts";
import { execute } from "../methods/index.ts";
import { insertTrigger, claimTriggers } from "../db/triggers.store.ts";
import { newTriggerRun } from "../methods/trigger-run.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import { RETENTION_MS, sweepEnded } from "./sweep.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp() {
  server = await startTestServer();
  const account = await addAccount(server, "alice");
  const actor = await createActor(server.services.db, {
    accountId: account.id,
    baseUrl: server.url,
  });
  if (!actor.ok) throw new Error(actor.error);
  return { accountId: account.id, actorId: actor.actor.id };
}

describe("running a trigger", () => {
  it("sends nothing twice when a run is repeated after a crash cut the first one off", async () => {
    const { accountId, actorId } = await setUp();
    const body = { actor: actorId, data: { type: "Note", content: "once", to: [] } };
    await insertTrigger(server!.services.db, {
      id: "t-1",
      accountId,
      actorId,
      method: "send_message",
      body: JSON.stringify(body),
    });
    // The first run committed its send; the second stands for the run after a restart.
    for (let run = 0; run < 2; run++)
      expect(
        await execute(server!.services, {
          accountId,
          method: "send_message",
          body,
          trigger: newTriggerRun("t-1"),
        }),
      ).toBeNull();
    const events = await server!.services.events.readAfter(accountId, "outgoing", 0);
    expect(events.map((e) => JSON.parse(e.data).trigger_id)).toEqual(["t-1"]);
  });

  it("lets another process claim a running trigger only once its lease has run out", async () => {
    // A bare database: no worker of this process competes for the row.
    const { db } = await openFreshDatabase();
    try {
      await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('a', 'x', 0)`);
      await insertTrigger(db, { id: "t-2", accountId: 1, actorId: "a", method: "x", body: "{}" });
      const [taken] = await claimTriggers(db, 10, 30_000);
      expect(taken).toMatchObject({ id: "t-2", state: "running" });
      // Its owner is alive (the lease runs): nobody else gets it.
      expect(await claimTriggers(db, 10, 30_000)).toEqual([]);
      // Its owner died and the lease ran out: another process takes it over, once.
      await db.run(`UPDATE triggers SET locked_until = ? WHERE id = 't-2'`, [Date.now() - 1]);
      expect((await claimTriggers(db, 10, 30_000)).map((t) => t.id)).toEqual(["t-2"]);
      expect(await claimTriggers(db, 10, 30_000)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe("sweeping", () => {
  it("deletes triggers and deliveries that ended before the retention, and keeps unfinished ones", async () => {
    const { db } = await openFreshDatabase();
    try {
      await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('a', 'x', 0)`);
      for (const id of ["old", "open"])
        await insertTrigger(db, { id, accountId: 1, actorId: "a", method: "x", body: "{}" });
      await db.run(`UPDATE triggers SET state = 'done', finished_at = 1 WHERE id = 'old'`);
      for (const [trigger, state] of [
        ["old", "delivered"],
        ["old", "failed"],
        ["open", "retrying"],
      ])
        await db.run(
          `INSERT INTO deliveries (actor_id, account_id, trigger_id, inbox, host, body, routing_key, original, state, next_attempt_at, created_at, updated_at)
           VALUES ('a', 1, ?, 'https://x.example/inbox', 'x.example', '{}', 'x', '', ?, 0, 0, 1)`,
          [trigger, state],
        );
      await sweepEnded(db, 2 + RETENTION_MS);
      expect(await db.all(`SELECT id FROM triggers`)).toEqual([{ id: "open" }]);
      expect(await db.all(`SELECT state FROM deliveries`)).toEqual([{ state: "retrying" }]);
    } finally {
      await db.close();
    }
  });
});
