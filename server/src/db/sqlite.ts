import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { UniqueViolation, type Db } from "./db.ts";

/**
 * Opens (creating if needed) a SQLite file in WAL mode. node:sqlite is synchronous, so the
 * promises resolve at once; transactions are serialised so that two never interleave.
 */
export function openSqlite(path: string): { db: Db; raw: DatabaseSync } {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const raw = new DatabaseSync(path);
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec("PRAGMA synchronous = NORMAL");
  raw.exec("PRAGMA foreign_keys = ON");
  raw.exec("PRAGMA busy_timeout = 5000");
  // A checkpoint (every 1,000 WAL pages by default) stops every request for two fsyncs; the
  // inbox writes about 1.4 pages per activity, so under inbox load that was several stalls a
  // second, 5-8% of the time. Every 4,000 pages (16 MB of WAL) there are a quarter as many, and a
  // page written again meanwhile is copied once. Commits stay exactly as durable as before.
  raw.exec("PRAGMA wal_autocheckpoint = 4000");

  const statements = new Map<string, ReturnType<DatabaseSync["prepare"]>>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = raw.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const bind = (params: readonly unknown[]) =>
    params.map((p) =>
      typeof p === "boolean" ? (p ? 1 : 0) : p === undefined ? null : p,
    ) as SQLInputValue[];
  const wrap = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof Error && /UNIQUE constraint failed|PRIMARY KEY/.test(error.message)) {
        throw new UniqueViolation(error.message, { cause: error });
      }
      throw error;
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  // Which async flow is inside the open transaction: only its own calls are nested in it. A
  // transaction begun by another flow meanwhile (its statements would otherwise land in this one,
  // and go with its rollback) waits its turn.
  // (A callback scheduled inside one and run after it ended finds it closed.)
  const inside = new AsyncLocalStorage<{ open: boolean }>();

  const db: Db = {
    dialect: "sqlite",
    async all<T>(sql: string, params: readonly unknown[] = []) {
      return wrap(() => prepare(sql).all(...bind(params)) as T[]);
    },
    async get<T>(sql: string, params: readonly unknown[] = []) {
      return wrap(() => prepare(sql).get(...bind(params)) as T | undefined);
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return wrap(() => ({ changes: Number(prepare(sql).run(...bind(params)).changes) }));
    },
    transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      if (inside.getStore()?.open) return fn(db); // nested: part of the outer transaction
      const result = queue.then(() => {
        const current = { open: true };
        return inside.run(current, async () => {
          raw.exec("BEGIN IMMEDIATE");
          try {
            const value = await fn(db);
            raw.exec("COMMIT");
            return value;
          } catch (error) {
            raw.exec("ROLLBACK");
            throw error;
          } finally {
            current.open = false;
          }
        });
      });
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      raw.close();
    },
  };
  return { db, raw };
}
