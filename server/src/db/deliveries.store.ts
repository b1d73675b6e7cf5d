import type { Db } from "./db.ts";

// The deliveries table as the queue uses it: claiming due rows atomically, so that several
// processes can share one queue, and writing a group of outcomes in one transaction. It lives in
// db/ because claiming differs by dialect (FOR UPDATE SKIP LOCKED on PostgreSQL).

const LOCK_MS = 5 * 60_000;

export interface DeliveryRow {
  id: number;
  actor_id: string;
  account_id: number | null;
  inbox: string;
  body: string;
  routing_key: string;
  original: string;
  attempt: number;
}

export interface NewDelivery {
  actorId: string;
  accountId: number;
  inbox: string;
  body: string;
  routingKey: string;
  original: string;
}

export interface Retry {
  id: number;
  attempt: number;
  nextAttemptAt: number;
}

/** Inserts the rows in one transaction, due at once. */
export async function insertDeliveries(db: Db, rows: NewDelivery[]): Promise<void> {
  const now = Date.now();
  await db.transaction(async (tx) => {
    for (const row of rows) {
      await tx.run(
        `INSERT INTO deliveries (actor_id, account_id, inbox, body, routing_key, original, attempt, next_attempt_at, locked_until, created_at)
         VALUES (?, ?, ?, ?, ?, ?, 0, ?, 0, ?)`,
        [row.actorId, row.accountId, row.inbox, row.body, row.routingKey, row.original, now, now],
      );
    }
  });
}

export async function claimDue(db: Db, limit: number): Promise<DeliveryRow[]> {
  const now = Date.now();
  // SKIP LOCKED keeps two PostgreSQL processes from claiming the same rows; SQLite serialises writes.
  const skipLocked = db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
  const rows = await db.all<DeliveryRow>(
    `UPDATE deliveries SET locked_until = ?
     WHERE locked_until < ? AND id IN (
       SELECT id FROM deliveries WHERE next_attempt_at <= ? AND locked_until < ?
       ORDER BY next_attempt_at, id LIMIT ?${skipLocked})
     RETURNING id, actor_id, account_id, inbox, body, routing_key, original, attempt`,
    [now + LOCK_MS, now, now, now, limit],
  );
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    attempt: Number(r.attempt),
    account_id: r.account_id == null ? null : Number(r.account_id),
  }));
}

/** Deletes the finished rows and reschedules the retries, in one transaction. */
export async function recordOutcomes(db: Db, done: number[], retries: Retry[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < done.length; i += 500) {
      const chunk = done.slice(i, i + 500);
      await tx.run(
        `DELETE FROM deliveries WHERE id IN (${chunk.map(() => "?").join(", ")})`,
        chunk,
      );
    }
    for (const retry of retries) {
      await tx.run(
        `UPDATE deliveries SET attempt = ?, next_attempt_at = ?, locked_until = 0 WHERE id = ?`,
        [retry.attempt, retry.nextAttemptAt, retry.id],
      );
    }
  });
}
