import type { Db } from "./db.ts";

// Fedify's key–value entries (cached keys and documents) expire but are read past, not deleted.
// Both dialects keep them in `fedify_kv` with the same columns (Fedify's SqliteKvStore and our
// PostgresKvStore); the table appears on first use, so a sweep before then has nothing to do.

const TABLE = "fedify_kv";

/** Deletes up to `limit` entries expired by `now`; returns how many. */
export async function deleteExpiredKvEntries(db: Db, now: number, limit: number): Promise<number> {
  const exists =
    db.dialect === "postgres"
      ? await db.get<{ name: string | null }>(`SELECT to_regclass(?)::text AS name`, [TABLE])
      : await db.get<{ name: string }>(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`,
          [TABLE],
        );
  if (!exists?.name) return 0;
  const { changes } = await db.run(
    `DELETE FROM ${TABLE} WHERE key IN (
       SELECT key FROM ${TABLE} WHERE expires IS NOT NULL AND expires <= ? LIMIT ?)`,
    [now, limit],
  );
  return changes;
}
