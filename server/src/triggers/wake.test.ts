import { afterEach, describe, expect, it } from "vitest";
import { createAccount } from "../accounts/index.ts";
import { createActor } from "../actors/index.ts";
import { parseConfig } from "../config.ts";
import { openDatabase } from "../db/open.ts";
import { createPostgresBus } from "../db/postgres-bus.ts";
import { createEventLog } from "../events/index.ts";
import type { Services } from "../services.ts";
import { createTestDatabase } from "../../test/db/postgres-test-database.ts";
import { acceptTrigger, startTriggerWorker } from "./index.ts";

// Two processes on one PostgreSQL database: a trigger accepted by one is run by the other's
// worker at once, woken by NOTIFY, not by its (here, one-minute) poll.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function openServices(url: string): Promise<Services> {
  const { db } = await openDatabase(url);
  const bus = await createPostgresBus(url);
  cleanups.push(
    () => db.close(),
    () => bus.close(),
  );
  const config = parseConfig({ database: url, baseUrls: ["http://127.0.0.1:9"] });
  const events = createEventLog(db, bus, { cap: 10_000 });
  return { config, db, events, bus, federation: undefined as never };
}

describe("trigger wake-ups across processes (PostgreSQL)", () => {
  it("runs a trigger accepted by one process on another's worker within a second", async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const web = await openServices(database.url);
    const worker = await openServices(database.url);
    const account = await createAccount(web.db, { name: "wake", password: "wake-password" });
    if (!account.ok) throw new Error(account.error);
    const actor = await createActor(web.db, {
      accountId: account.account.id,
      baseUrl: "http://127.0.0.1:9",
    });
    if (!actor.ok) throw new Error(actor.error);
    const running = startTriggerWorker(worker, { pollMs: 60_000 });
    cleanups.push(() => running.stop());
    // Let the worker's first claim (at start) find nothing, so only a wake-up can start the run.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const id = await acceptTrigger(web, {
      accountId: account.account.id,
      actorId: actor.actor.id,
      method: "send_message",
      body: { actor: actor.actor.id, data: { type: "Note", to: [] } },
    });
    await expect
      .poll(
        async () =>
          (await web.db.get<{ state: string }>(`SELECT state FROM triggers WHERE id = ?`, [id]))
            ?.state,
        { timeout: 5_000, interval: 20 },
      )
      .toBe("done");
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
