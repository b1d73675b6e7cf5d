import type { Db } from "../db/db.ts";
import type { DeliveryState } from "../db/deliveries.store.ts";

// Reading the kept deliveries (a trigger's record, a host's health) and moving them between
// states on the operator's word: redeliver, stop, resume, retry. Moves never touch a row in
// flight's outcome: the worker writes that as the attempt ends (queue.ts).

export interface DeliveryRecordRow {
  id: number;
  inbox: string;
  host: string;
  state: DeliveryState;
  status: number | null;
  attempt: number;
  last_error: string | null;
  next_attempt_at: number;
  delivered_at: number | null;
  trigger_id: string | null;
}

const columns = `id, inbox, host, state, status, attempt, last_error, next_attempt_at, delivered_at, trigger_id`;

const toRow = (r: DeliveryRecordRow): DeliveryRecordRow => ({
  ...r,
  id: Number(r.id),
  status: r.status == null ? null : Number(r.status),
  attempt: Number(r.attempt),
  next_attempt_at: Number(r.next_attempt_at),
  delivered_at: r.delivered_at == null ? null : Number(r.delivered_at),
});

// Where a row that is to be sent again goes: held while its host is stopped.
const heldOrDue = (due: "queued" | "retrying" | "attempt") => `CASE
  WHEN EXISTS (SELECT 1 FROM hosts h WHERE h.account_id = deliveries.account_id AND h.host = deliveries.host AND h.stopped = 1) THEN 'stopped'
  ${due === "attempt" ? "WHEN attempt = 0 THEN 'queued' ELSE 'retrying'" : `ELSE '${due}'`} END`;

export async function listTriggerDeliveries(db: Db, triggerId: string) {
  const rows = await db.all<DeliveryRecordRow>(
    `SELECT ${columns} FROM deliveries WHERE trigger_id = ? ORDER BY id`,
    [triggerId],
  );
  return rows.map(toRow);
}

/** Failed (and retrying) deliveries of a trigger, or of one of its inboxes, due again now. */
export async function redeliverTrigger(
  db: Db,
  triggerId: string,
  inbox: string | null,
): Promise<number> {
  const result = await db.run(
    `UPDATE deliveries SET state = ${heldOrDue("retrying")}, next_attempt_at = ?
     WHERE trigger_id = ? AND state IN ('failed', 'retrying')${inbox === null ? "" : " AND inbox = ?"}`,
    inbox === null ? [Date.now(), triggerId] : [Date.now(), triggerId, inbox],
  );
  return result.changes;
}

/** Per host, how many deliveries wait (queued, retrying or stopped). */
export async function countWaitingByHost(db: Db, accountId: number): Promise<Map<string, number>> {
  const rows = await db.all<{ host: string; n: number }>(
    `SELECT host, COUNT(*) AS n FROM deliveries
     WHERE account_id = ? AND state IN ('queued', 'retrying', 'stopped') GROUP BY host`,
    [accountId],
  );
  return new Map(rows.map((r) => [r.host, Number(r.n)]));
}

/** The newest failed deliveries of the account, at most `limit`. */
export async function listFailed(db: Db, accountId: number, limit: number) {
  const rows = await db.all<DeliveryRecordRow>(
    `SELECT ${columns} FROM deliveries WHERE account_id = ? AND state = 'failed'
     ORDER BY updated_at DESC LIMIT ?`,
    [accountId, limit],
  );
  return rows.map(toRow);
}

export async function holdHostDeliveries(tx: Db, accountId: number, host: string): Promise<void> {
  await tx.run(
    `UPDATE deliveries SET state = 'stopped' WHERE account_id = ? AND host = ? AND state IN ('queued', 'retrying')`,
    [accountId, host],
  );
}

export async function releaseHostDeliveries(
  tx: Db,
  accountId: number,
  host: string,
): Promise<void> {
  await tx.run(
    `UPDATE deliveries SET state = ${heldOrDue("attempt")}, next_attempt_at = ?
     WHERE account_id = ? AND host = ? AND state = 'stopped'`,
    [Date.now(), accountId, host],
  );
}

/** "Retry now": the host's failed and waiting deliveries due at once. */
export async function retryHostDeliveries(
  tx: Db,
  accountId: number,
  host: string,
): Promise<number> {
  const result = await tx.run(
    `UPDATE deliveries SET state = ${heldOrDue("attempt")}, next_attempt_at = ?
     WHERE account_id = ? AND host = ? AND state IN ('failed', 'retrying', 'queued')`,
    [Date.now(), accountId, host],
  );
  return result.changes;
}

/** The circuit breaker: the host's waiting deliveries (but `except`) not due before `until`. */
export async function deferHostDeliveries(
  tx: Db,
  accountId: number,
  host: string,
  until: number,
  except: number,
): Promise<void> {
  await tx.run(
    `UPDATE deliveries SET next_attempt_at = ?
     WHERE account_id = ? AND host = ? AND state IN ('queued', 'retrying') AND next_attempt_at < ? AND id <> ?`,
    [until, accountId, host, until, except],
  );
}

/** The host answered again: its waiting deliveries are due now. */
export async function releaseDeferred(
  tx: Db,
  accountId: number,
  host: string,
  now: number,
): Promise<void> {
  await tx.run(
    `UPDATE deliveries SET next_attempt_at = ?
     WHERE account_id = ? AND host = ? AND state IN ('queued', 'retrying') AND next_attempt_at > ?`,
    [now, accountId, host, now],
  );
}
