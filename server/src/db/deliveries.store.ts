import type { Db } from "./db.ts";
import { skipLocked } from "./claiming.ts";

// The deliveries table: one row per (activity, inbox), kept after it ends so a trigger's record
// and the per-host health can say what happened. Claims look only at unfinished, due rows (the
// partial index deliveries_due) and hold a short lease that the worker renews while in flight.
// It lives in db/ because claiming differs by dialect (FOR UPDATE SKIP LOCKED on PostgreSQL).

export type DeliveryState = "queued" | "retrying" | "delivered" | "failed" | "refused" | "stopped";

export interface DeliveryRow {
  id: number;
  actor_id: string;
  account_id: number | null;
  trigger_id: string | null;
  inbox: string;
  host: string;
  /** The body as queued before bodies were stored once (migration 6); '' when body_id names it. */
  body: string;
  body_id: number | null;
  routing_key: string;
  original: string;
  attempt: number;
}

export interface NewDelivery {
  actorId: string;
  accountId: number;
  triggerId: string | null;
  inbox: string;
  host: string;
  /** The delivery_bodies row it sends. */
  bodyId: number;
  routingKey: string;
  original: string;
  state: DeliveryState;
  nextAttemptAt: number;
  lastError?: string | null;
}

/** What one attempt came to, written as the attempt ends. */
export type DeliveryOutcome =
  | { id: number; state: "delivered"; status: number; attempt: number }
  | {
      id: number;
      state: "failed" | "refused" | "retrying" | "stopped";
      status: number | null;
      attempt: number;
      error: string;
      nextAttemptAt: number;
    };

const INSERT_COLUMNS = `actor_id, account_id, trigger_id, inbox, host, body, body_id, routing_key, original, attempt, state, last_error, next_attempt_at, locked_until, created_at, updated_at`;
// Rows per INSERT: 16 parameters each stays far below either database's limit.
const INSERT_CHUNK = 200;

export async function insertDeliveries(tx: Db, rows: NewDelivery[]): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    await tx.run(
      `INSERT INTO deliveries (${INSERT_COLUMNS}) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, '', ?, ?, ?, 0, ?, ?, ?, 0, ?, ?)").join(", ")}`,
      chunk.flatMap((row) => [
        row.actorId,
        row.accountId,
        row.triggerId,
        row.inbox,
        row.host,
        row.bodyId,
        row.routingKey,
        row.original,
        row.state,
        row.lastError ?? null,
        row.nextAttemptAt,
        now,
        now,
      ]),
    );
  }
}

/** Claims up to `limit` due, unfinished rows for `leaseMs`. */
export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<DeliveryRow[]> {
  const now = Date.now();
  const rows = await db.all<DeliveryRow>(
    `UPDATE deliveries SET locked_until = ?
     WHERE id IN (
       SELECT id FROM deliveries
       WHERE state IN ('queued', 'retrying') AND next_attempt_at <= ? AND locked_until < ?
       ORDER BY next_attempt_at, id LIMIT ?${skipLocked(db)})
     AND locked_until < ?
     RETURNING id, actor_id, account_id, trigger_id, inbox, host, body, body_id, routing_key, original, attempt`,
    [now + leaseMs, now, now, limit, now],
  );
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    attempt: Number(r.attempt),
    account_id: r.account_id == null ? null : Number(r.account_id),
    body_id: r.body_id == null ? null : Number(r.body_id),
  }));
}

/** Extends the lease of rows still in flight. */
export async function renewLeases(db: Db, ids: number[], until: number): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await db.run(
      `UPDATE deliveries SET locked_until = ? WHERE id IN (${chunk.map(() => "?").join(", ")})`,
      [until, ...chunk],
    );
  }
}

/** Writes what attempts came to; deliveries that arrived alike share one statement. */
export async function writeOutcomes(tx: Db, outcomes: DeliveryOutcome[]): Promise<void> {
  const now = Date.now();
  const delivered = new Map<string, number[]>();
  for (const outcome of outcomes) {
    if (outcome.state === "delivered") {
      const key = `${outcome.status} ${outcome.attempt}`;
      const ids = delivered.get(key);
      if (ids) ids.push(outcome.id);
      else delivered.set(key, [outcome.id]);
      continue;
    }
    await tx.run(
      `UPDATE deliveries SET state = ?, status = ?, attempt = ?, last_error = ?, next_attempt_at = ?, locked_until = 0, updated_at = ? WHERE id = ?`,
      [
        outcome.state,
        outcome.status,
        outcome.attempt,
        outcome.error,
        outcome.nextAttemptAt,
        now,
        outcome.id,
      ],
    );
  }
  for (const [key, ids] of delivered) {
    const [status, attempt] = key.split(" ").map(Number);
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      // PostgreSQL: the ids as one JSON array, one statement text for any number of them
      // (postgres.js prepares each new text on each connection, a round trip before its run).
      if (tx.dialect === "postgres")
        await tx.run(
          `UPDATE deliveries SET state = 'delivered', status = ?, attempt = ?, delivered_at = ?, locked_until = 0, updated_at = ?
           WHERE id IN (SELECT value::bigint FROM json_array_elements_text((?::text)::json))`,
          [status, attempt, now, now, JSON.stringify(chunk)],
        );
      else
        await tx.run(
          `UPDATE deliveries SET state = 'delivered', status = ?, attempt = ?, delivered_at = ?, locked_until = 0, updated_at = ?
           WHERE id IN (${chunk.map(() => "?").join(", ")})`,
          [status, attempt, now, now, ...chunk],
        );
    }
  }
}

/** Rows that were queued before hosts were recorded (migration 3) get theirs. */
export async function fillMissingHosts(db: Db): Promise<void> {
  const rows = await db.all<{ id: number; inbox: string }>(
    `SELECT id, inbox FROM deliveries WHERE host = ''`,
  );
  for (const row of rows) {
    let host = "?";
    try {
      host = new URL(row.inbox).host;
    } catch {
      // an inbox that is no URL keeps "?" and fails on its attempt as before
    }
    await db.run(`UPDATE deliveries SET host = ? WHERE id = ?`, [host, row.id]);
  }
}

/** Deletes deliveries that ended before `before` (delivered, failed, refused); how many. */
export async function deleteEndedDeliveries(db: Db, before: number): Promise<number> {
  const result = await db.run(
    `DELETE FROM deliveries WHERE state IN ('delivered', 'failed', 'refused') AND updated_at < ?`,
    [before],
  );
  return result.changes;
}
