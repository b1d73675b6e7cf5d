import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import { createMemoryBus, type BusMessage } from "../db/bus.ts";
import { createEventLog } from "./event-log.ts";

let db: Db;
afterEach(() => db?.close());

async function setUp(cap = 10_000) {
  ({ db } = await openFreshDatabase());
  for (const name of ["alice", "bob"]) {
    await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES (?, 'x', 0)`, [
      name,
    ]);
  }
  const bus = createMemoryBus();
  return { log: createEventLog(db, bus, { cap }), bus };
}

describe("event log", () => {
  it("numbers events per account and stream, starting at 1", async () => {
    const { log } = await setUp();
    expect(await log.append(1, "incoming", { n: 1 })).toBe(1);
    expect(await log.append(1, "incoming", { n: 2 })).toBe(2);
    expect(await log.append(1, "error", { n: 3 })).toBe(1);
    expect(await log.append(2, "incoming", { n: 4 })).toBe(1);
    const events = await log.readAfter(1, "incoming", 0);
    expect(events.map((e) => [e.seq, JSON.parse(e.data)])).toEqual([
      [1, { n: 1 }],
      [2, { n: 2 }],
    ]);
    expect(await log.readAfter(1, "incoming", 1)).toHaveLength(1);
    expect(await log.lastSeq(2, "outgoing")).toBe(0);
  });

  it("keeps only the newest `cap` events of a stream", async () => {
    const { log } = await setUp(3);
    for (let n = 1; n <= 5; n++) await log.append(1, "outgoing", { n });
    const events = await log.readAfter(1, "outgoing", 0);
    expect(events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(await log.append(1, "outgoing", { n: 6 })).toBe(6);
  });

  it("announces every stored event on the bus after it is readable", async () => {
    const { log } = await setUp();
    const seen: Array<BusMessage & { readable: boolean }> = [];
    const stop = log.subscribe((message) => {
      void log
        .readAfter(message.accountId, message.stream, message.seq - 1)
        .then((rows) => seen.push({ ...message, readable: rows.length === 1 }));
    });
    await log.append(2, "error", { oops: true });
    stop();
    await log.append(2, "error", { unseen: true });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([{ accountId: 2, stream: "error", seq: 1, readable: true }]);
  });
});
