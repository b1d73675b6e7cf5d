import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { setTimeout as delay } from "node:timers/promises";
import { join } from "node:path";
import { configure, reset, type LogRecord } from "@logtape/logtape";
import postgres from "postgres";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Db } from "./db.ts";
import {
  indexSearchGroup,
  scheduleSearchIndexing,
  searchMark,
  setSearchIndexingWaits,
  stopSearchIndexing,
} from "./event-search.store.ts";
import { appendEvents, pruneEvents, queryEvents } from "./events.store.ts";
import { openDatabase } from "./open.ts";
import { openPostgres } from "./postgres.ts";
import {
  createTestDatabase,
  TEST_POSTGRES_ADMIN_URL,
  type TestDatabase,
} from "../../test/db/postgres-test-database.ts";

// History's text filter answers exactly as a scan of every event would, on SQLite (a scan) and
// on PostgreSQL (pg_trgm's index on the search copy, whose candidates the ILIKE rechecks, and a
// scan of the events not copied yet): case-insensitive for ASCII letters, anywhere in the JSON,
// % and _ taken as text.

const created: TestDatabase[] = [];
afterAll(() => Promise.all(created.splice(0).map((d) => d.drop())));

async function freshDb(dialect: "sqlite" | "postgres"): Promise<Db> {
  if (dialect === "sqlite")
    return (await openDatabase(`sqlite:${join(mkdtempSync(join(tmpdir(), "corral-trgm-")), "t")}`))
      .db;
  const database = await createTestDatabase();
  created.push(database);
  const { db } = await openDatabase(database.url);
  // The tests copy events into the search table themselves, when they mean to.
  await stopSearchIndexing(db);
  return db;
}

const WORDS = ["Zanzibar", "ZANZIBAR", "zanzíbar", "Zanzíbar", "ZANZÍBAR", "100% off", "a_b", "ab"];

/** 2,000 events, a few carrying one of WORDS, so that PostgreSQL prefers the index. */
async function fill(db: Db): Promise<Map<number, string>> {
  await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('a', 'x', 1)`);
  const texts = new Map<number, string>();
  const events = [];
  for (let n = 1; n <= 2000; n++) {
    const word = n % 97 === 0 ? WORDS[(n / 97) % WORDS.length]! : `plain ${n}`;
    const json = JSON.stringify({ type: "Create", content: `<p>note ${word} here</p>`, n });
    texts.set(n, json);
    events.push({ json, kind: "Create", actors: " https://x.example/u ", hosts: " x.example " });
  }
  for (let i = 0; i < events.length; i += 500)
    await appendEvents(db, 1, "incoming", events.slice(i, i + 500));
  await db.run(`ANALYZE`);
  return texts;
}

/** What a scan finds: ASCII letters folded, nothing else. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const scan = (texts: Map<number, string>, q: string) =>
  [...texts]
    .filter(([, json]) => asciiLower(json).includes(asciiLower(q)))
    .map(([seq]) => seq)
    .reverse();

describe.each(["sqlite", "postgres"] as const)("history's text filter on %s", (dialect) => {
  it("finds what a scan finds, for rare, common, short and non-ASCII words", async () => {
    const db = await freshDb(dialect);
    try {
      const texts = await fill(db);
      const check = async (on: Db) => {
        for (const q of [...WORDS, "zAnZiBaR", "zanz", "note", "nowhere", "%", "_", "1"]) {
          const found = await queryEvents(on, {
            accountId: 1,
            stream: "incoming",
            limit: 500,
            text: q,
          });
          expect(
            found.map((e) => e.seq),
            q,
          ).toEqual(scan(texts, q).slice(0, 500));
        }
      };
      await check(db);
      if (dialect === "postgres") {
        // Nothing copied yet, all of it scanned above; now a part copied, then all of it.
        expect(await searchMark(db, 1, "incoming")).toBe(0);
        await db.run(
          `INSERT INTO event_search (account_id, stream, seq, data, actors, hosts)
           SELECT account_id, stream, seq, data, actors, hosts FROM events WHERE seq <= 1234`,
        );
        await db.run(`INSERT INTO event_search_marks VALUES (1, 'incoming', 1234)`);
        await check(db);
        await indexAll(db);
        expect(await searchMark(db, 1, "incoming")).toBe(2000);
        await db.run(`ANALYZE`);
        await check(db);
      }
      // PostgreSQL again with the newest-first walk ruled out: the rare words from the index.
      if (dialect === "postgres")
        await db.transaction(async (tx) => {
          await tx.run(`SET LOCAL enable_seqscan = off`);
          await tx.run(`SET LOCAL enable_indexscan = off`);
          await check(tx);
        });
    } finally {
      await db.close();
    }
  });
});

/** Copies every event into event_search, as the indexer does after appends. */
async function indexAll(db: Db): Promise<void> {
  while ((await indexSearchGroup(db, { wait: true })) > 0);
}

describe("pg_trgm indexes on PostgreSQL", () => {
  it("are not written by an append: events are copied into the search table after it, and found before and after", async () => {
    const database = await createTestDatabase();
    created.push(database);
    const db = (await openDatabase(database.url)).db;
    await stopSearchIndexing(db);
    let other: Db | undefined;
    try {
      const indexes = await db.all<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 'events'`,
      );
      expect(indexes.map((i) => i.indexdef).filter((d) => /gin|trgm/i.test(d))).toEqual([]);
      await fill(db);
      // Appended, not yet copied: the search table is empty, and history finds them by a scan.
      expect(await db.get(`SELECT COUNT(*) AS n FROM event_search`)).toEqual({ n: 0 });
      const find = (text: string, limit = 500) =>
        queryEvents(db, { accountId: 1, stream: "incoming", limit, text }).then((found) =>
          found.map((e) => e.seq),
        );
      expect(await find("Zanzibar")).toContain(97);
      // The indexer runs after the append (asked as the event log asks it; here in a second
      // process's pool, whose own start asks it too) and catches up.
      other = (await openDatabase(database.url)).db;
      scheduleSearchIndexing(other);
      await vi.waitFor(async () => expect(await searchMark(db, 1, "incoming")).toBe(2000), {
        timeout: 60_000,
        interval: 50,
      });
      expect(await db.get(`SELECT COUNT(*) AS n FROM event_search`)).toEqual({ n: 2000 });
      // Newer events above the mark and older ones below it come in one answer, newest first.
      await appendEvents(db, 1, "incoming", [
        { json: JSON.stringify({ content: "Zanzibar again" }), actors: " https://y.example/v " },
      ]);
      const zanzibar = await find("zanzibar", 3);
      expect(zanzibar[0]).toBe(2001);
      expect(zanzibar.slice(1).every((seq) => seq < 2000)).toBe(true);
      expect(
        await queryEvents(db, {
          accountId: 1,
          stream: "incoming",
          limit: 5,
          actor: "https://y.example/v",
        }),
      ).toHaveLength(1);
      // Oldest first (after=): the copied ones first, then those above the mark.
      const after = await queryEvents(db, {
        accountId: 1,
        stream: "incoming",
        limit: 500,
        afterSeq: 1500,
        text: "zanzibar",
      });
      expect(after.map((e) => e.seq)).toEqual([2001, 1649, 1552]);
      // Pruned events leave the search copy too, and are found no more.
      await pruneEvents(db, 1, "incoming", 1000);
      expect(
        await db.get(`SELECT MIN(seq) AS first FROM event_search WHERE stream = 'incoming'`),
      ).toEqual({ first: 1001 });
      expect((await find("zanzibar")).every((seq) => seq > 1000)).toBe(true);
    } finally {
      await other?.close();
      await db.close();
    }
  });

  it("serves the text filter under its collation, and the actor and host filters", async () => {
    const db = await freshDb("postgres");
    try {
      await fill(db);
      await indexAll(db);
      await db.run(`ANALYZE`);
      // An index on plain `data` would not serve `data COLLATE "C" ILIKE`; small tables are
      // scanned anyway, so the scan is ruled out to see whether the index can answer at all.
      const plan = (condition: string) =>
        db.transaction(async (tx) => {
          await tx.run(`SET LOCAL enable_seqscan = off`);
          const rows = await tx.all<{ "QUERY PLAN": string }>(
            `EXPLAIN SELECT seq FROM event_search WHERE ${condition} ORDER BY seq DESC LIMIT 101`,
          );
          return rows.map((row) => row["QUERY PLAN"]).join("\n");
        });
      expect(await plan(`data COLLATE "C" ILIKE '%zanzibar%'`)).toContain("event_search_text_trgm");
      expect(await plan(`actors LIKE '% https://x.example/u %'`)).toContain(
        "event_search_actors_trgm",
      );
      expect(await plan(`hosts LIKE '% x.example %'`)).toContain("event_search_hosts_trgm");
    } finally {
      await db.close();
    }
  });

  it("copies once appends pause, or at the latest a while after the first one it has not copied", async () => {
    // While the inbox appends, the copy would take the CPU its senders wait for (docs/history-search.md).
    const database = await createTestDatabase();
    created.push(database);
    const db = (await openDatabase(database.url)).db;
    await stopSearchIndexing(db);
    // A second process's pool, whose indexer the appends ask (opened without its start's pass).
    const other = await openPostgres(database.url);
    // Appends asking for a pass every 20 ms, until stopped.
    let asking: NodeJS.Timeout | undefined;
    const startAsking = () => (asking = setInterval(() => scheduleSearchIndexing(other), 20));
    const mark = () => searchMark(db, 1, "incoming");
    try {
      await fill(db);
      // Asked for a second: never quiet for 10 s, nor 100 s after the first ask.
      setSearchIndexingWaits(other, { quietMs: 10_000, maxWaitMs: 100_000 });
      startAsking();
      await delay(1000); // what is asserted is that nothing happens meanwhile
      clearInterval(asking);
      expect(await mark()).toBe(0);
      // Then quiet for 200 ms after the last ask: copied.
      setSearchIndexingWaits(other, { quietMs: 200, maxWaitMs: 100_000 });
      scheduleSearchIndexing(other);
      await vi.waitFor(async () => expect(await mark()).toBe(2000), { timeout: 30_000 });
      // Never quiet, but 500 ms after the first ask not copied: copied while still asked.
      await appendEvents(db, 1, "incoming", [{ json: `{"n":2001}` }]);
      setSearchIndexingWaits(other, { quietMs: 10_000, maxWaitMs: 500 });
      startAsking();
      await vi.waitFor(async () => expect(await mark()).toBe(2001), { timeout: 30_000 });
    } finally {
      clearInterval(asking);
      await stopSearchIndexing(other);
      await other.close();
      await db.close();
    }
  });

  it("starts without them when pg_trgm cannot be created, says why in one log line, and still filters", async () => {
    // A role that may create tables but not extensions (no CREATE on the database).
    const database = await createTestDatabase();
    created.push(database);
    const role = `corral_noext_${randomBytes(4).toString("hex")}`;
    const owner = postgres(database.url, { max: 1, onnotice: () => {} });
    const admin = postgres(TEST_POSTGRES_ADMIN_URL, { max: 1, onnotice: () => {} });
    await owner.unsafe(`CREATE ROLE ${role} LOGIN`);
    await owner.unsafe(`GRANT CREATE ON SCHEMA public TO ${role}`);
    const logs: LogRecord[] = [];
    await configure({
      reset: true,
      sinks: { memory: (record) => void logs.push(record) },
      loggers: [
        { category: ["corral"], sinks: ["memory"], lowestLevel: "warning" },
        { category: ["logtape", "meta"], sinks: [], lowestLevel: "error" },
      ],
    });
    const url = new URL(database.url);
    url.username = role;
    let db: Db | undefined;
    try {
      db = (await openDatabase(url.href)).db;
      expect(logs.map((r) => r.message.join(""))).toEqual([
        expect.stringMatching(
          /^could not set up pg_trgm for history's indexes \(.*permission denied.*\): text, actor and host filters scan/,
        ),
      ]);
      await fill(db);
      const found = await queryEvents(db, {
        accountId: 1,
        stream: "incoming",
        limit: 10,
        text: "zanzibar",
      });
      expect(found.length).toBeGreaterThan(0);
    } finally {
      await reset();
      await db?.close();
      await owner.end();
      await database.drop();
      await admin.unsafe(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });
});
