import { describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { openDatabase } from "../db/open.ts";
import { freshDatabaseUrl } from "../../test/fresh.ts";
import { createTestDatabase } from "../../test/db/postgres-test-database.ts";
import { claimSeen, insertClaims, markStored } from "./inbox-seen.store.ts";
import { insertClaimGrouped, markStoredGrouped } from "./stored-marks.ts";

const keyOf = (n: number) => ({
  actorId: `https://a.example/actor/${n % 3}`,
  activityId: `https://b.example/${n}`,
  senderId: "https://b.example/bob",
});

// Claims asked for at once go in together: each key is claimed once, by its first asker, and a
// key already claimed is not claimed again.
async function claimsEachKeyOnce(db: Db) {
  expect(await claimSeen(db, keyOf(0), 1_000, 0)).toBe("claimed");
  const keys = [0, 1, 2, 1, 3].map(keyOf);
  expect(await Promise.all(keys.map((key) => insertClaimGrouped(db, key)))).toEqual([
    false,
    true,
    true,
    false,
    true,
  ]);
  expect(await claimSeen(db, keyOf(1), Date.now(), 0)).toBe("busy");
}

// Marks asked for at once go in groups (1,000 at most, in statements of 300 keys): each is
// marked, and a claim nobody marked stays a claim.
async function marksEachAskedForAndNoOther(db: Db) {
  const keys = Array.from({ length: 1201 }, (_, n) => keyOf(n));
  for (const key of keys) expect(await claimSeen(db, key, 1_000, 0)).toBe("claimed");
  await Promise.all(keys.slice(0, 1200).map((key) => markStoredGrouped(db, key)));
  for (const key of keys.slice(0, 1200)) expect(await claimSeen(db, key, 1_001, 0)).toBe("stored");
  expect(await claimSeen(db, keys[1200]!, 1_001, 0)).toBe("busy");
}

describe("claims inserted and marked stored in groups", () => {
  it("claims each key once, by its first asker, on SQLite and on PostgreSQL", async () => {
    const sqlite = (await openDatabase(freshDatabaseUrl())).db;
    const database = await createTestDatabase();
    const pg = (await openDatabase(database.url, { pool: 4 })).db;
    try {
      await claimsEachKeyOnce(sqlite);
      await claimsEachKeyOnce(pg);
    } finally {
      await sqlite.close();
      await pg.close();
      await database.drop();
    }
  });

  it("marks every claim asked for, and no other, on SQLite", async () => {
    const { db } = await openDatabase(freshDatabaseUrl());
    try {
      await marksEachAskedForAndNoOther(db);
    } finally {
      await db.close();
    }
  });

  it("marks every claim asked for, and no other, on PostgreSQL", async () => {
    const database = await createTestDatabase();
    const { db } = await openDatabase(database.url, { pool: 4 });
    try {
      await marksEachAskedForAndNoOther(db);
    } finally {
      await db.close();
      await database.drop();
    }
  });

  it("prepares one statement for claims and one for marks on PostgreSQL, whatever a group's size", async () => {
    // postgres.js prepares each new statement text on each connection (a round trip to
    // PostgreSQL before its first run): a text per group size made that most groups' cost.
    const database = await createTestDatabase();
    const { db } = await openDatabase(database.url, { pool: 1 });
    try {
      for (const size of [1, 2, 3, 7]) {
        const keys = Array.from({ length: size }, (_, n) => keyOf(size * 100 + n));
        expect(await insertClaims(db, keys, 1_000)).toEqual(keys.map(() => true));
        await markStored(db, keys);
        for (const key of keys) expect(await claimSeen(db, key, 1_001, 0)).toBe("stored");
      }
      const prepared = await db.all<{ statement: string }>(
        `SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%inbox_seen%'`,
      );
      const count = (start: RegExp) => prepared.filter((p) => start.test(p.statement)).length;
      expect(count(/^\s*INSERT INTO inbox_seen/)).toBe(1 + 1); // and claimSeen's own
      expect(count(/^\s*UPDATE inbox_seen SET stored = 1/)).toBe(1);
    } finally {
      await db.close();
      await database.drop();
    }
  });

  it("commits claims without a flush of their own on PostgreSQL, for their statement only", async () => {
    // docs/adr/0016: the append of what was claimed flushes the claims' commits with its own.
    const database = await createTestDatabase();
    const { db } = await openDatabase(database.url, { pool: 1 });
    const other = (await openDatabase(database.url, { pool: 1 })).db;
    try {
      const keys = [keyOf(1), keyOf(2)];
      expect(await insertClaims(db, keys, 1_000)).toEqual([true, true]);
      // Committed: another connection (another process) sees them as claims at once.
      for (const key of keys) expect(await claimSeen(other, key, 1_001, 0)).toBe("busy");
      // The setting was the claims' transaction's alone: the connection's next statements,
      // an append's among them, wait for their flush as PostgreSQL's settings say.
      const row = await db.get<{ setting: string }>(
        `SELECT setting FROM pg_settings WHERE name = 'synchronous_commit'`,
      );
      const server = await other.get<{ setting: string }>(
        `SELECT setting FROM pg_settings WHERE name = 'synchronous_commit'`,
      );
      expect(row!.setting).toBe(server!.setting);
      const texts = await db.all<{ statement: string }>(
        `SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO inbox_seen%'`,
      );
      expect(texts.map((t) => t.statement).join()).toMatch(
        /set_config\('synchronous_commit', 'off', true\)/,
      );
    } finally {
      await db.close();
      await other.close();
      await database.drop();
    }
  });
});
