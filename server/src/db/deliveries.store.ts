import type { Services } from "../services.ts";
import type { Outcome } from "../delivery/attempt.ts";
import type { DeliveryRow } from "../delivery/queue.ts";

// The deliveries table as the queue uses it: claiming due rows atomically, so that several
// processes can share one queue, and writing a group of outcomes in one transaction.

const LOCK_MS = 5 * 60_000;

export async function claimDue(services: Services, limit: number): Promise<DeliveryRow[]> {
  const now = Date.now();
  // SKIP LOCKED keeps two PostgreSQL processes from claiming the same rows; SQLite serialises writes.
  const skipLocked = services.db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
  const rows = await services.db.all<DeliveryRow>(
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

export async function recordOutcomes(services: Services, outcomes: Outcome[]): Promise<void> {
  const done = outcomes.filter((o) => o.kind !== "retry").map((o) => o.id);
  const retries = outcomes.filter((o) => o.kind === "retry");
  await services.db.transaction(async (tx) => {
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
