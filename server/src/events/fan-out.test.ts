import { afterEach, describe, expect, it } from "vitest";
import { createMemoryBus } from "../db/bus.ts";
import type { Db } from "../db/db.ts";
import {
  appendEvents,
  lastEventSeq,
  readEventsAfter,
  type StoredEvent,
} from "../db/events.store.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import { createFanOut } from "./fan-out.ts";

let db: Db;
afterEach(() => db?.close());

// A real store and bus; the reads are counted on their way through.
async function setUp(options: { beforeLastSeq?: () => Promise<void> } = {}) {
  ({ db } = await openFreshDatabase());
  await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('alice', 'x', 0)`);
  const bus = createMemoryBus();
  const reads: number[] = [];
  const fanOut = createFanOut({
    readAfter: (accountId, stream, after, limit) => {
      reads.push(after);
      return readEventsAfter(db, accountId, stream, after, limit);
    },
    lastSeq: async (accountId, stream) => {
      await options.beforeLastSeq?.();
      return lastEventSeq(db, accountId, stream);
    },
    subscribe: bus.subscribe,
  });
  const append = async (n: number) => {
    const { last: seq } = await appendEvents(db, 1, "incoming", [{ json: JSON.stringify({ n }) }]);
    await bus.publish({ accountId: 1, stream: "incoming", seq });
  };
  const watch = async (after: number | null) => {
    const seen: StoredEvent[] = [];
    const handle = await fanOut.watch(1, "incoming", after, {
      onRows: (rows) => seen.push(...rows),
      onError: (error) => {
        throw error;
      },
    });
    return { seen, ...handle };
  };
  return { fanOut, reads, append, watch, bus };
}

describe("stream fan-out", () => {
  it("reads once per notification for all caught-up watchers of a stream", async () => {
    const { reads, append, watch } = await setUp();
    const watchers = await Promise.all(Array.from({ length: 5 }, () => watch(null)));
    await expect.poll(() => reads.length).toBe(5); // each caught up alone once
    await append(1);
    await Promise.all(watchers.map((w) => expect.poll(() => w.seen.length).toBe(1)));
    expect(reads.length).toBe(6);
    await append(2);
    await Promise.all(watchers.map((w) => expect.poll(() => w.seen.length).toBe(2)));
    expect(reads.length).toBe(7);
  });

  it("hands rows this process stored to its caught-up watchers without a read; one behind still reads", async () => {
    const { reads, fanOut, watch, bus } = await setUp();
    const [a, b] = [await watch(null), await watch(null)];
    await expect.poll(() => reads.length).toBe(2);
    // As the event log does: commit, hand over the rows as stored, then the bus's notification.
    const store = async (n: number, handOver: boolean) => {
      const createdAt = 1_000 + n;
      const json = JSON.stringify({ n });
      const { last: seq } = await appendEvents(db, 1, "incoming", [{ json }], undefined, createdAt);
      if (handOver) fanOut.stored(1, "incoming", [{ seq, data: json, createdAt }]);
      return seq;
    };
    const one = await store(1, true);
    expect(a.seen).toEqual([{ seq: one, data: '{"n":1}', createdAt: 1_001 }]);
    expect(b.seen).toEqual(a.seen);
    expect(reads.length).toBe(2);
    // The same rows as a read returns them.
    expect(await readEventsAfter(db, 1, "incoming", 0, 10)).toEqual(a.seen);
    // Stored by another process (no rows handed over): then the next handed rows do not follow
    // what the watchers have, and they read, as on a notification, what they miss.
    await store(2, false);
    const three = await store(3, true);
    expect(a.seen).toHaveLength(1);
    await bus.publish({ accountId: 1, stream: "incoming", seq: three });
    await expect.poll(() => a.seen.map((row) => row.seq)).toEqual([one, one + 1, three]);
    await expect.poll(() => b.seen.map((row) => row.seq)).toEqual([one, one + 1, three]);
    expect(reads.length).toBe(3); // one shared read
  });

  it("hands every event to each watcher once, in order, while others join mid-burst", async () => {
    const { append, watch, fanOut } = await setUp();
    const first = await watch(null);
    const writes: Promise<void>[] = [];
    const late: Awaited<ReturnType<typeof watch>>[] = [];
    for (let n = 1; n <= 300; n++) {
      writes.push(append(n));
      if (n % 60 === 0) late.push(await watch(0));
    }
    await Promise.all(writes);
    const all = Array.from({ length: 300 }, (_, i) => i + 1);
    for (const w of [first, ...late]) {
      await expect.poll(() => w.seen.length).toBe(300);
      expect(w.seen.map((row) => row.seq)).toEqual(all);
    }
    expect(fanOut.watchers()).toBe(6);
    [first, ...late].forEach((w) => w.close());
    expect(fanOut.watchers()).toBe(0);
  });

  it("starts a watch after the given id, or after the newest one when none is given", async () => {
    const { append, watch } = await setUp();
    for (let n = 1; n <= 3; n++) await append(n);
    const fromNow = await watch(null);
    const resumed = await watch(1);
    const future = await watch(99);
    expect([fromNow.start, resumed.start, future.start]).toEqual([3, 1, 0]);
    await expect.poll(() => resumed.seen.map((r) => r.seq)).toEqual([2, 3]);
    await expect.poll(() => future.seen.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(fromNow.seen).toEqual([]);
  });

  it("does not replay to a watch from now what was stored while it started", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { append, watch, reads } = await setUp({ beforeLastSeq: () => gate });
    const starting = watch(null);
    await append(1); // announced while the watch does not yet know where "now" is
    release();
    const fromNow = await starting;
    expect(fromNow.start).toBe(1);
    await append(2);
    await expect.poll(() => fromNow.seen.map((r) => r.seq)).toEqual([2]);
    expect(reads.every((after) => after >= 1)).toBe(true);
  });
});
