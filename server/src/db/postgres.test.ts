import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UniqueViolation, type Db } from "./db.ts";
import { openDatabase } from "./open.ts";
import { openPostgres } from "./postgres.ts";
import { translatePlaceholders } from "./postgres-sql.ts";
import { createTestDatabase, type TestDatabase } from "../../test/db/postgres-test-database.ts";

// What only PostgreSQL needs: clear failures to connect, savepoints, placeholder rewriting.
// The behaviour both dialects share is in store.test.ts.

describe("openPostgres when the database cannot be used", () => {
  it("says the connection was refused, in one line", async () => {
    const port = await closedPort();
    const started = Date.now();
    await expect(openDatabase(`postgres://postgres@127.0.0.1:${port}/x`)).rejects.toThrow(
      new Error(`cannot reach PostgreSQL at 127.0.0.1:${port}: connection refused`),
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("names a database that does not exist", async () => {
    await expect(
      openPostgres("postgres://postgres@127.0.0.1:5432/corral_missing_db"),
    ).rejects.toThrow(
      new Error(
        'cannot open PostgreSQL database "corral_missing_db" at 127.0.0.1:5432: database "corral_missing_db" does not exist',
      ),
    );
  });

  it("gives up in time when something other than PostgreSQL answers on the port", async () => {
    const server = createServer((_, res) => res.end("not postgres"));
    const port = await listen(server);
    try {
      const started = Date.now();
      await expect(
        openPostgres(`postgres://postgres@127.0.0.1:${port}/x`, { connectTimeout: 1 }),
      ).rejects.toThrow(`cannot reach PostgreSQL at 127.0.0.1:${port}:`);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("never shows the password of the URL", async () => {
    const port = await closedPort();
    const error = await openPostgres(`postgres://postgres:s3cret@127.0.0.1:${port}/x`).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).not.toContain("s3cret");
  });
});

describe("PostgreSQL transactions", () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = (await openDatabase(database.url)).db;
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const insertAccount = (tx: Db, name: string) =>
    tx.run("INSERT INTO accounts (name, password_hash, created_at) VALUES (?, ?, ?)", [
      name,
      "x",
      1,
    ]);

  it("carries on after a failed nested transaction, which rolls back only its own statements", async () => {
    await insertAccount(db, "taken");
    await db.transaction(async (tx) => {
      await insertAccount(tx, "outer");
      await expect(
        tx.transaction(async (inner) => {
          await insertAccount(inner, "inner");
          await insertAccount(inner, "taken");
        }),
      ).rejects.toBeInstanceOf(UniqueViolation);
      await insertAccount(tx, "after");
    });
    const names = (await db.all<{ name: string }>("SELECT name FROM accounts ORDER BY name")).map(
      (r) => r.name,
    );
    expect(names).toEqual(["after", "outer", "taken"]);
  });

  it("keeps a transaction's writes from other connections until it commits", async () => {
    let seenOutside: unknown;
    await db.transaction(async (tx) => {
      await insertAccount(tx, "pending");
      seenOutside = await db.get("SELECT name FROM accounts WHERE name = ?", ["pending"]);
    });
    expect(seenOutside).toBeUndefined();
    expect(await db.get("SELECT name FROM accounts WHERE name = ?", ["pending"])).toEqual({
      name: "pending",
    });
  });
});

describe("translatePlaceholders", () => {
  it("numbers each ? outside literals, quoted names and comments", () => {
    expect(
      translatePlaceholders(
        `SELECT "a?", 'it''s ?', ? -- what?\n FROM t /* ? */ WHERE x = ? AND y IN (?, ?)`,
      ),
    ).toBe(`SELECT "a?", 'it''s ?', $1 -- what?\n FROM t /* ? */ WHERE x = $2 AND y IN ($3, $4)`);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}
