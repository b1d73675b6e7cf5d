import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { openDatabase } from "../db/open.ts";
import { freshDatabaseUrl } from "../../test/fresh.ts";
import { createTestDatabase, type TestDatabase } from "../../test/db/postgres-test-database.ts";
import { createMemoryBus, type BusMessage } from "../db/bus.ts";
import { createEventLog, type EventLogOptions } from "./event-log.ts";

// The event log on both dialects: every test runs on a fresh SQLite file and on a fresh
// PostgreSQL database.

const databases: TestDatabase[] = [];
const open: Db[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
});

const dialects = [
  { name: "sqlite", fresh: async () => freshDatabaseUrl() },
  {
    name: "postgres",
    fresh: async () => {
      const database = await createTestDatabase();
      databases.push(database);
      return database.url;
    },
  },
];

async function openDb(url: string) {
  const { db } = await openDatabase(url);
  open.push(db);
  return db;
}

describe.each(dialects)("event log on $name", (dialect) => {
  async function setUp(options: Partial<EventLogOptions> = {}) {
    const url = await dialect.fresh();
    const db = await openDb(url);
    for (const name of ["alice", "bob"]) {
      await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES (?, 'x', 0)`, [
        name,
      ]);
    }
    const bus = createMemoryBus();
    return { log: createEventLog(db, bus, { cap: 10_000, ...options }), bus, url, db };
  }

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
    expect(await log.lastSeq(1, "incoming")).toBe(2);
  });

  it("appends with the caller's work in one transaction, numbered, announced and pruned as append's are", async () => {
    const { log, bus, db } = await setUp({ cap: 3, pruneEvery: 4 });
    const heard: BusMessage[] = [];
    bus.subscribe((message) => heard.push(message));
    const told: number[] = [];
    log.onAppended((_account, _stream, rows) => told.push(...rows.map((row) => row.seq)));
    const addAccount = (tx: Db, name: string) =>
      tx.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES (?, 'x', 0)`, [name]);
    for (let n = 1; n <= 3; n++) await log.append(1, "outgoing", { n });
    const after: number[] = [];
    const seq = await log.appendInTransaction(
      1,
      "outgoing",
      { n: 4 },
      async (tx) => {
        await addAccount(tx, "carol");
        return true;
      },
      async (_tx, stored) => void after.push(stored),
    );
    expect(seq).toBe(4);
    expect(after).toEqual([4]);
    // The fourth event of the stream prunes it down to the cap, whichever way it was appended.
    expect((await log.readAfter(1, "outgoing", 0)).map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(heard.at(-1)).toMatchObject({ accountId: 1, stream: "outgoing", seq: 4 });
    expect(told).toEqual([1, 2, 3, 4]);
    // Declined by its work: nothing stored, nothing announced.
    expect(await log.appendInTransaction(1, "outgoing", { n: 5 }, async () => false)).toBeNull();
    // Work that fails takes the event with it, and the event's failure the work.
    await expect(
      log.appendInTransaction(1, "outgoing", { n: 5 }, async (tx) => {
        await addAccount(tx, "dave");
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    expect(await log.lastSeq(1, "outgoing")).toBe(4);
    expect(told).toEqual([1, 2, 3, 4]);
    const names = await db.all<{ name: string }>(`SELECT name FROM accounts ORDER BY name`);
    expect(names.map((row) => row.name)).toEqual(["alice", "bob", "carol"]);
  });

  it("prunes every `pruneEvery` appends down to the newest `cap`, and ids keep growing", async () => {
    const { log } = await setUp({ cap: 3, pruneEvery: 4 });
    for (let n = 1; n <= 7; n++) await log.append(1, "outgoing", { n });
    // Pruned at seq 4 (down to 2..4); 5..7 came after.
    expect((await log.readAfter(1, "outgoing", 0)).map((e) => e.seq)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(await log.append(1, "outgoing", { n: 8 })).toBe(8);
    expect((await log.readAfter(1, "outgoing", 0)).map((e) => e.seq)).toEqual([6, 7, 8]);
    expect(await log.append(1, "outgoing", { n: 9 })).toBe(9);
  });

  it("stores an event above the byte limit cut down, marked truncated, its short fields intact", async () => {
    const { log } = await setUp({ maxEventBytes: 4096 });
    const big = {
      event_type: "incoming",
      data: { raw: { type: "Note", content: "x".repeat(10_000) } },
    };
    await log.append(1, "incoming", big);
    const [stored] = await log.readAfter(1, "incoming", 0);
    expect(Buffer.byteLength(stored!.data)).toBeLessThanOrEqual(4096);
    const event = JSON.parse(stored!.data);
    expect(event).toMatchObject({ event_type: "incoming", truncated: true });
    expect(event.data.raw.type).toBe("Note");
    expect(event.data.raw.content).toMatch(/^x+…$/);
    await log.append(1, "incoming", { small: true });
    expect(JSON.parse((await log.readAfter(1, "incoming", 1))[0]!.data)).toEqual({ small: true });
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
    await expect
      .poll(() => seen)
      .toEqual([{ accountId: 2, stream: "error", seq: 1, readable: true }]);
  });

  it("stores the appends made in one turn of the event loop as one group, announced once", async () => {
    const { log, bus } = await setUp();
    const announced: number[] = [];
    bus.subscribe((message) => announced.push(message.seq));
    // Made one after another from separate callbacks, as requests read from separate sockets.
    const first = log.append(1, "incoming", { n: 1 });
    await Promise.resolve();
    const second = log.append(1, "incoming", { n: 2 });
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(announced).toEqual([2]);
  });

  it("appends from many writers at once without failures, gaps or doubles", async () => {
    const { log, url } = await setUp();
    // On PostgreSQL a second pool on the same database stands for a second process.
    const other =
      dialect.name === "postgres"
        ? createEventLog(await openDb(url), createMemoryBus(), { cap: 10_000 })
        : log;
    const writes = Array.from({ length: 400 }, (_, n) =>
      (n % 2 ? other : log).append(1, "incoming", { n }),
    );
    const seqs = await Promise.all(writes);
    // Within one process, concurrent appends are stored in groups, in the order they were made.
    for (const parity of [0, 1]) {
      const mine = seqs.filter((_, n) => n % 2 === parity);
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
    }
    expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    const stored = await log.readAfter(1, "incoming", 0, 1000);
    expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(new Set(stored.map((e) => JSON.parse(e.data).n)).size).toBe(400);
  });
});

// appendIf: the inbox claims an activity in the transaction that stores its event (SQLite).
describe("appendIf on sqlite", () => {
  async function setUp() {
    const db = await openDb(freshDatabaseUrl());
    await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('alice', 'x', 0)`);
    await db.run(`CREATE TABLE marks (n INTEGER)`);
    return { db, log: createEventLog(db, createMemoryBus(), { cap: 10_000 }) };
  }
  const mark = (n: number) => async (tx: Db) => {
    await tx.run(`INSERT INTO marks (n) VALUES (?)`, [n]);
    return n % 2 === 0;
  };

  it("stores, in one group, the events whose condition holds, numbered without gaps, and what each condition wrote", async () => {
    const { db, log } = await setUp();
    const seqs = await Promise.all([
      log.appendIf(1, "incoming", { n: 1 }, mark(1)),
      log.appendIf(1, "incoming", { n: 2 }, mark(2)),
      log.append(1, "incoming", { n: 3 }),
      log.appendIf(1, "incoming", { n: 4 }, mark(4)),
    ]);
    expect(seqs).toEqual([null, 1, 2, 3]);
    const events = await log.readAfter(1, "incoming", 0);
    expect(events.map((e) => JSON.parse(e.data).n)).toEqual([2, 3, 4]);
    expect((await db.all<{ n: number }>(`SELECT n FROM marks ORDER BY n`)).map((r) => r.n)).toEqual(
      [1, 2, 4],
    );
  });

  it("stores nothing of a group whose condition fails, neither events nor what conditions wrote", async () => {
    const { db, log } = await setUp();
    const failing = async () => {
      throw new Error("no");
    };
    const results = await Promise.allSettled([
      log.appendIf(1, "incoming", { n: 2 }, mark(2)),
      log.appendIf(1, "incoming", { n: 3 }, failing),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await log.readAfter(1, "incoming", 0)).toEqual([]);
    expect(await db.all(`SELECT n FROM marks`)).toEqual([]);
    expect(await log.append(1, "incoming", { n: 5 })).toBe(1);
  });
});
