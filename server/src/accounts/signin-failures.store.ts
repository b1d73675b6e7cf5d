import type { Db } from "../db/db.ts";

// Failed sign-ins, one row per failure and key (`name:alice`, `addr:198.51.100.7`). In the
// database rather than in memory so that every process of one PostgreSQL sees the same counts.

export async function recordSignInFailure(
  db: Db,
  keys: string[],
  at: number,
  forgetBefore: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    // Rows past the window count for nothing: each failure sweeps them.
    await tx.run(`DELETE FROM signin_failures WHERE failed_at <= ?`, [forgetBefore]);
    for (const key of keys)
      await tx.run(`INSERT INTO signin_failures (key, failed_at) VALUES (?, ?)`, [key, at]);
  });
}

/** When the `n`th most recent failure of `key` after `since` happened, if there were n. */
export async function nthRecentFailure(
  db: Db,
  key: string,
  since: number,
  n: number,
): Promise<number | undefined> {
  const row = await db.get<{ failed_at: number | bigint }>(
    `SELECT failed_at FROM signin_failures WHERE key = ? AND failed_at > ?
     ORDER BY failed_at DESC LIMIT 1 OFFSET ?`,
    [key, since, n - 1],
  );
  return row ? Number(row.failed_at) : undefined;
}

export async function forgetSignInFailures(db: Db, key: string): Promise<void> {
  await db.run(`DELETE FROM signin_failures WHERE key = ?`, [key]);
}
