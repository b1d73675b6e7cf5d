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

  it("stores each event's JSON text exactly as the live streams are handed it", async () => {
    const { log } = await setUp();
    const handed: string[] = [];
    log.onAppended((_account, _stream, rows) => handed.push(...rows.map((row) => row.data)));
    const data = {
      content: 'a "quoted" \\ back\\slash, a\nnew line, \u0000 nul, tab\t, é, 🐄, lone \ud800',
      nested: { list: [1, 2.5, -0, 1e21, null, true], empty: {} },
    };
    await Promise.all([log.append(1, "incoming", data), log.append(1, "incoming", { n: 2 })]);
    const stored = (await log.readAfter(1, "incoming", 0)).map((e) => e.data);
    expect(stored).toEqual(handed);
    expect(JSON.parse(stored[0]!)).toEqual(JSON.parse(JSON.stringify(data)));
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

// appendTaking: the inbox's claim goes in with its event, in one commit
// (docs/adr/0020-inbox-claims-in-the-append.md).
describe.each(dialects)("appendTaking on $name", (dialect) => {
  async function setUp() {
    const db = await openDb(await dialect.fresh());
    await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('alice', 'x', 0)`);
    return { db, log: createEventLog(db, createMemoryBus(), { cap: 10_000 }) };
  }
  const claim = (n: number) => ({
    actorId: "https://corral.example/actors/a",
    activityId: `https://remote.example/activities/${n}`,
    senderId: "https://remote.example/bob",
  });
  const seen = (db: Db) =>
    db.all<{ activity_id: string; stored: number }>(
      `SELECT activity_id, stored FROM inbox_seen ORDER BY activity_id`,
    );

  it("stores, in one group, each event whose claim is free, numbered without gaps, its claim stored with it", async () => {
    const { db, log } = await setUp();
    // Another copy holds 1 (stored), 3 (being stored, fresh) and 4 (left by a process that died).
    await db.run(
      `INSERT INTO inbox_seen (actor_id, activity_id, sender_id, received_at, stored)
       VALUES (?, ?, ?, 900, 1), (?, ?, ?, 5000, 0), (?, ?, ?, 100, 0)`,
      [...Object.values(claim(1)), ...Object.values(claim(3)), ...Object.values(claim(4))],
    );
    const staleBefore = 1000;
    const seqs = await Promise.all([
      log.appendTaking(1, "incoming", { n: 1 }, { claim: claim(1), staleBefore }),
      log.appendTaking(1, "incoming", { n: 2 }, { claim: claim(2), staleBefore }),
      log.append(1, "incoming", { n: 0 }),
      log.appendTaking(1, "incoming", { n: 3 }, { claim: claim(3), staleBefore }),
      log.appendTaking(1, "incoming", { n: 4 }, { claim: claim(4), staleBefore }),
      // The same claim twice in one group: the second copy is left out.
      log.appendTaking(1, "incoming", { n: 5 }, { claim: claim(2), staleBefore }),
    ]);
    expect(seqs).toEqual([null, 1, 2, null, 3, null]);
    const events = await log.readAfter(1, "incoming", 0);
    expect(events.map((e) => [e.seq, JSON.parse(e.data).n])).toEqual([
      [1, 2],
      [2, 0],
      [3, 4],
    ]);
    expect((await seen(db)).map((r) => [r.activity_id.slice(-1), Number(r.stored)])).toEqual([
      ["1", 1],
      ["2", 1],
      ["3", 0],
      ["4", 1],
    ]);
    // The stream goes on from there.
    expect(await log.append(1, "incoming", { n: 6 })).toBe(4);
  });

  it("stores nothing, and bumps no counter, when every claim of a group is held", async () => {
    const { db, log } = await setUp();
    await db.run(
      `INSERT INTO inbox_seen (actor_id, activity_id, sender_id, received_at, stored)
       VALUES (?, ?, ?, 900, 1)`,
      Object.values(claim(1)),
    );
    expect(
      await log.appendTaking(1, "incoming", { n: 1 }, { claim: claim(1), staleBefore: 0 }),
    ).toBeNull();
    expect(await log.readAfter(1, "incoming", 0)).toEqual([]);
    expect(await log.lastSeq(1, "incoming")).toBe(0);
  });

  it("two logs taking the same claims at once store each event once", async () => {
    const { db } = await setUp();
    const logs = [0, 1].map(() => createEventLog(db, createMemoryBus(), { cap: 10_000 }));
    const n = 40;
    const results = await Promise.all(
      logs.flatMap((log, l) =>
        Array.from({ length: n }, (_, i) => {
          // The two logs name the claims in opposite orders.
          const k = l === 0 ? i : n - 1 - i;
          return log.appendTaking(1, "incoming", { k }, { claim: claim(k), staleBefore: 0 });
        }),
      ),
    );
    expect(results.filter((seq) => seq !== null)).toHaveLength(n);
    const events = await logs[0]!.readAfter(1, "incoming", 0, 1000);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(new Set(events.map((e) => JSON.parse(e.data).k)).size).toBe(n);
    expect((await seen(db)).every((r) => Number(r.stored) === 1)).toBe(true);
  });
});
