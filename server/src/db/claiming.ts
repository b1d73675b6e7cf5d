import type { Db } from "./db.ts";

// Work tables (triggers, deliveries) are claimed with a lease: a process that dies leaves its
// claims to expire, and another process takes the work over. What differs by dialect is here.

/** Appended to a claim's inner SELECT: PostgreSQL processes skip rows another one is claiming. */
export function skipLocked(db: Db): string {
  return db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
}

/**
 * A SQLite file has one server process, so at its start every lease left in the file belongs to
 * a process that is gone: released at once instead of waiting for it to expire. On PostgreSQL
 * other processes may be alive and holding them; their leases expire on their own.
 */
export async function releaseStaleClaims(db: Db): Promise<void> {
  if (db.dialect !== "sqlite") return;
  await db.run(`UPDATE triggers SET locked_until = 0 WHERE state = 'running'`);
  await db.run(`UPDATE deliveries SET locked_until = 0 WHERE locked_until > 0`);
}
