import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UniqueViolation, type Db } from "./db.ts";
import { openDatabase } from "./open.ts";
import { createTestDatabase, type TestDatabase } from "../../test/db/postgres-test-database.ts";

// The same behaviour, whichever the dialect: every test here runs on a fresh SQLite file and on
// a fresh PostgreSQL database.

interface Dialect {
  name: string;
  /** A URL naming a store that exists for this suite only. */
  fresh(): Promise<string>;
  cleanUp(): Promise<void>;
}

const sqlite: Dialect = {
  name: "sqlite",
  fresh: async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "corral-db-")), "test.sqlite")}`,
  cleanUp: async () => {},
};

// One PostgreSQL database per test: each starts from an empty schema, as a fresh SQLite file does.
const created: TestDatabase[] = [];
const postgresDialect: Dialect = {
  name: "postgres",
  async fresh() {
    const database = await createTestDatabase();
    created.push(database);
    return database.url;
  },
  cleanUp: async () => {
    await Promise.all(created.splice(0).map((d) => d.drop()));
  },
};

const insertAccount = (db: Db, name: string) =>
  db.run("INSERT INTO accounts (name, password_hash, created_at) VALUES (?, ?, ?)", [name, "x", 1]);

describe.each([sqlite, postgresDialect])("$name store", (dialect) => {
  const open: Db[] = [];
  const openFresh = async () => {
    const { db } = await openDatabase(await dialect.fresh());
    open.push(db);
    return db;
  };
  afterAll(async () => {
    await Promise.all(open.map((db) => db.close().catch(() => {})));
    await dialect.cleanUp();
  });

  it("creates the schema once and keeps data across reopen", async () => {
    const url = await dialect.fresh();
    const first = await openDatabase(url);
    await insertAccount(first.db, "alice");
    await first.db.close();
    const second = await openDatabase(url);
    expect(await second.db.all("SELECT name FROM accounts")).toEqual([{ name: "alice" }]);
    await second.db.close();
  });

  it("reports a duplicate key as UniqueViolation", async () => {
    const db = await openFresh();
    await insertAccount(db, "a");
    await expect(insertAccount(db, "a")).rejects.toBeInstanceOf(UniqueViolation);
  });

  it("rolls a failed transaction back entirely", async () => {
    const db = await openFresh();
    await expect(
      db.transaction(async (tx) => {
        await insertAccount(tx, "b");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await db.all("SELECT * FROM accounts")).toEqual([]);
  });

  it("keeps a transaction begun while another runs out of it: the other's rollback does not take it along", async () => {
    const db = await openFresh();
    let startSecond!: () => void;
    const gate = new Promise<void>((resolve) => (startSecond = resolve));
    // Begun from a callback of its own while the first is between two of its statements.
    const second = gate.then(() => db.transaction((tx) => insertAccount(tx, "second")));
    const first = db.transaction(async (tx) => {
      await insertAccount(tx, "first");
      startSecond();
      for (let i = 0; i < 5; i++) await tx.get("SELECT COUNT(*) AS n FROM accounts");
      throw new Error("first rolled back");
    });
    await expect(first).rejects.toThrow("first rolled back");
    await second;
    expect(await db.all("SELECT name FROM accounts")).toEqual([{ name: "second" }]);
  });

  it("commits a transaction and answers with what its function returned", async () => {
    const db = await openFresh();
    const value = await db.transaction(async (tx) => {
      await insertAccount(tx, "c");
      return (await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM accounts"))?.n;
    });
    expect(value).toBe(1);
    expect(await db.all("SELECT name FROM accounts")).toEqual([{ name: "c" }]);
  });

  it("returns counts, sums and BIGINT columns as numbers", async () => {
    const db = await openFresh();
    await db.run("INSERT INTO accounts (name, password_hash, created_at) VALUES (?, ?, ?)", [
      "d",
      "x",
      1_700_000_000_000,
    ]);
    const row = await db.get(
      "SELECT COUNT(*) AS n, SUM(created_at) AS total, MAX(id) AS id FROM accounts",
    );
    expect(row).toEqual({ n: 1, total: 1_700_000_000_000, id: 1 });
    expect(await db.get("SELECT created_at FROM accounts")).toEqual({
      created_at: 1_700_000_000_000,
    });
  });

  it("binds true/false as 1/0 and undefined as NULL", async () => {
    const db = await openFresh();
    await db.run(
      "INSERT INTO accounts (name, password_hash, admin, created_at) VALUES (?, ?, ?, ?)",
      ["e", "x", true, 1],
    );
    await db.run(
      "INSERT INTO accounts (name, password_hash, admin, created_at) VALUES (?, ?, ?, ?)",
      ["f", "x", false, 2],
    );
    await db.run(
      "INSERT INTO objects (id, actor_id, data, created_at, deleted_at) VALUES (?, ?, ?, ?, ?)",
      ["o", "a", "{}", 1, undefined],
    );
    expect(await db.all("SELECT name, admin FROM accounts ORDER BY name")).toEqual([
      { name: "e", admin: 1 },
      { name: "f", admin: 0 },
    ]);
    expect(await db.get("SELECT deleted_at FROM objects WHERE id = ?", ["o"])).toEqual({
      deleted_at: null,
    });
  });

  it("leaves a ? inside a string literal alone", async () => {
    const db = await openFresh();
    await insertAccount(db, "g");
    const rows = await db.all(
      "SELECT name, 'what?' AS q FROM accounts WHERE name = ? AND password_hash <> '?'",
      ["g"],
    );
    expect(rows).toEqual([{ name: "g", q: "what?" }]);
  });

  it("counts the rows a statement touched, and get answers undefined when none match", async () => {
    const db = await openFresh();
    await insertAccount(db, "h");
    await insertAccount(db, "i");
    expect(await db.run("UPDATE accounts SET admin = 1")).toEqual({ changes: 2 });
    expect(await db.get("SELECT name FROM accounts WHERE name = ?", ["nobody"])).toBeUndefined();
  });

  it("loses no update when transactions read and write the same row at once", async () => {
    const db = await openFresh();
    await insertAccount(db, "counter");
    await Promise.all(
      Array.from({ length: 12 }, () =>
        db.transaction(async (tx) => {
          const row = await tx.get<{ admin: number }>("SELECT admin FROM accounts WHERE name = ?", [
            "counter",
          ]);
          await tx.run("UPDATE accounts SET admin = ? WHERE name = ?", [row!.admin + 1, "counter"]);
        }),
      ),
    );
    expect(await db.get("SELECT admin FROM accounts WHERE name = ?", ["counter"])).toEqual({
      admin: 12,
    });
  });
});

describe("openDatabase", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("refuses a URL of another kind with a clear message", async () => {
    await expect(openDatabase("mysql://localhost/x")).rejects.toThrow(
      'unsupported database URL "mysql://localhost/x": use sqlite:PATH or postgres://…',
    );
  });

  it("runs the migrations once when several processes start on one PostgreSQL database at once", async () => {
    const opened = await Promise.all(Array.from({ length: 4 }, () => openDatabase(database.url)));
    const ids = await opened[0].db.all<{ id: number }>(
      "SELECT id FROM schema_migrations ORDER BY id",
    );
    expect(ids.map((r) => r.id)).toEqual(ids.map((_, i) => i + 1));
    expect(ids.length).toBeGreaterThan(1);
    await Promise.all(opened.map((o) => o.db.close()));
  });
});
