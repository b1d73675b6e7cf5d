import type { DatabaseSync } from "node:sqlite";
import type { Db } from "./db.ts";
import { scheduleSearchIndexing } from "./event-search.store.ts";
import { migrate } from "./schema.ts";
import { openSqlite } from "./sqlite.ts";
import { ensureTrigramIndexes } from "./trigram-indexes.ts";

export interface OpenDatabase {
  db: Db;
  /** The SQLite handle, for Fedify's SQLite KV store and queue; absent on PostgreSQL. */
  sqlite?: DatabaseSync;
}

/** Opens the store named by a `sqlite:PATH` or `postgres://…` URL and brings its schema up to date. */
export async function openDatabase(
  url: string,
  options: { pool?: number } = {},
): Promise<OpenDatabase> {
  let opened: OpenDatabase;
  if (url.startsWith("sqlite:")) {
    const { db, raw } = openSqlite(url.slice("sqlite:".length) || ":memory:");
    opened = { db, sqlite: raw };
  } else if (/^postgres(ql)?:\/\//.test(url)) {
    const { openPostgres } = await import("./postgres.ts");
    opened = { db: await openPostgres(url, { max: options.pool }) };
  } else {
    throw new Error(`unsupported database URL "${url}": use sqlite:PATH or postgres://…`);
  }
  await migrate(opened.db);
  await ensureTrigramIndexes(opened.db);
  // Events appended before this start (or by a process that stopped before copying them) go
  // into history's search table now (PostgreSQL; nothing on SQLite).
  scheduleSearchIndexing(opened.db);
  return opened;
}

/** A database URL fit for a log line: `postgres://user:secret@host/db` loses its secret. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^@/]*@/, "$1:***@");
}
