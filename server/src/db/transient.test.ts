import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/db/postgres-test-database.ts";
import { freePort } from "../../../test-kit/free-port.ts";
import { openPostgres } from "./postgres.ts";
import { isTransientDbError } from "./transient.ts";

// Real errors from both databases, classed: "run it again later" or "no".

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const caught = (work: () => unknown): Promise<unknown> =>
  Promise.resolve()
    .then(work)
    .then(
      () => {
        throw new Error("expected a failure");
      },
      (error: unknown) => error,
    );

describe("transient database errors", () => {
  it("SQLite: a file another connection holds (BUSY) is transient; a constraint is not", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "corral-busy-")), "db.sqlite");
    const holder = new DatabaseSync(path);
    const other = new DatabaseSync(path);
    cleanups.push(async () => {
      holder.close();
      other.close();
    });
    holder.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER PRIMARY KEY)");
    holder.exec("BEGIN IMMEDIATE");
    expect(isTransientDbError(await caught(() => other.exec("BEGIN IMMEDIATE")))).toBe(true);
    holder.exec("INSERT INTO t VALUES (1)");
    expect(isTransientDbError(await caught(() => holder.exec("INSERT INTO t VALUES (1)")))).toBe(
      false,
    );
  });

  it("PostgreSQL: a serialization failure and an unreachable server are transient; a unique violation and bad SQL are not", async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const sql = postgres(database.url, { max: 2, onnotice: () => {} });
    cleanups.push(() => sql.end({ timeout: 1 }));
    await sql.unsafe(`CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)`);
    await sql.unsafe(`INSERT INTO t VALUES (1, 0)`);
    // Two serializable transactions update one row: the second to commit loses.
    const a = await sql.reserve();
    const b = await sql.reserve();
    cleanups.push(async () => {
      a.release();
      b.release();
    });
    await a.unsafe(`BEGIN ISOLATION LEVEL SERIALIZABLE`);
    await b.unsafe(`BEGIN ISOLATION LEVEL SERIALIZABLE`);
    await a.unsafe(`SELECT n FROM t WHERE id = 1`);
    await b.unsafe(`SELECT n FROM t WHERE id = 1`);
    await a.unsafe(`UPDATE t SET n = 1 WHERE id = 1`);
    const losing = b.unsafe(`UPDATE t SET n = 2 WHERE id = 1`).then(
      () => undefined,
      (error: unknown) => error,
    );
    await a.unsafe(`COMMIT`);
    const lost = await losing;
    await b.unsafe(`ROLLBACK`);
    expect((lost as { code?: string }).code).toBe("40001");
    expect(isTransientDbError(lost)).toBe(true);

    const db = await openPostgres(database.url, { max: 1 });
    cleanups.push(() => db.close());
    expect(isTransientDbError(await caught(() => db.run(`INSERT INTO t VALUES (1, 0)`)))).toBe(
      false,
    );
    expect(isTransientDbError(await caught(() => db.run(`SELECT nope FROM t`)))).toBe(false);

    const port = await freePort();
    const gone = postgres(`postgres://postgres@127.0.0.1:${port}/x`, {
      max: 1,
      connect_timeout: 1,
    });
    cleanups.push(() => gone.end({ timeout: 0 }));
    expect(isTransientDbError(await caught(() => gone.unsafe(`SELECT 1`)))).toBe(true);
  });
});
