import { afterAll, describe, expect, it } from "vitest";
import type { BusMessage } from "../../src/db/bus.ts";
import type { Db } from "../../src/db/db.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createPostgresBus, type PostgresBus } from "../../src/db/postgres-bus.ts";
import { createEventLog } from "../../src/events/event-log.ts";
import { createTestDatabase, type TestDatabase } from "./postgres-test-database.ts";

// On PostgreSQL an event append announces itself: the append's statement NOTIFYs the bus's
// channel, so the announcement commits with the events (no NOTIFY transaction of its own, with
// its own commit and WAL flush, after each group). Two buses on one database stand for two
// processes.

const databases: TestDatabase[] = [];
const buses: PostgresBus[] = [];
afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  await Promise.all(databases.map((d) => d.drop()));
});

/** What a bus delivers; `next(n)` resolves once n messages arrived (or fails after 5 s). */
function record(bus: PostgresBus) {
  const got: BusMessage[] = [];
  bus.subscribe((message) => got.push(message));
  const next = async (n: number) => {
    await expect.poll(() => got.length, { timeout: 5000 }).toBeGreaterThanOrEqual(n);
    return got;
  };
  return { got, next };
}

describe("event appends on PostgreSQL", () => {
  it("hears an event log's appends from the appends themselves, once per group, in both processes", async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const url = database.url;
    const { db } = await openDatabase(url);
    try {
      await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('a', 'x', 0)`);
      const [own, other] = [await openBus(url), await openBus(url)];
      const onOwn = record(own);
      const onOther = record(other);
      // The append's statement says it (no NOTIFY of its own, no second commit): publish() is
      // never asked, for a group, nor for an append in a transaction with other work.
      const published: BusMessage[] = [];
      const publish = own.publish;
      own.publish = async (message) => {
        published.push(message);
        await publish(message);
      };
      const log = createEventLog(db, own, { cap: 100 });
      await Promise.all([log.append(1, "incoming", { n: 1 }), log.append(1, "incoming", { n: 2 })]);
      const declined = await log.appendInTransaction(1, "error", { n: 0 }, async () => false);
      const seq = await log.appendInTransaction(1, "error", { n: 3 }, async (tx: Db) => {
        await tx.run(`UPDATE accounts SET name = 'b' WHERE id = 1`);
        return true;
      });
      expect([declined, seq]).toEqual([null, 1]);
      const expected = [
        { accountId: 1, stream: "incoming", seq: 2 },
        { accountId: 1, stream: "error", seq: 1 },
      ];
      expect(await onOther.next(2)).toEqual(expected);
      expect(await onOwn.next(2)).toEqual(expected);
      expect(published).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

async function openBus(url: string): Promise<PostgresBus> {
  const bus = await createPostgresBus(url);
  buses.push(bus);
  return bus;
}
