import type { Db } from "./db.ts";
import { skipLocked } from "./claiming.ts";

// The triggers table: every accepted POST /fe/actor/trigger/{method}, recorded before the 202,
// run by the trigger worker (queued -> running -> done | failed) under a renewed lease, and the
// events each one caused (trigger_events).
// In db/, beneath the whole domain, as deliveries.store.ts and events.store.ts are: parts below
// triggers/ write it (a send claims its place in its run, an error event links itself to its
// trigger, a reader of error events takes a trigger's body from here), and its claim differs by
// dialect (claiming.ts).

export type TriggerState = "queued" | "running" | "done" | "failed";

export interface TriggerRow {
  id: string;
  account_id: number;
  actor_id: string;
  method: string;
  body: string;
  state: TriggerState;
  error: string | null;
  received_at: number;
}

const columns = `id, account_id, actor_id, method, body, state, error, received_at`;

const toRow = (r: TriggerRow): TriggerRow => ({
  ...r,
  account_id: Number(r.account_id),
  received_at: Number(r.received_at),
});

export async function insertTrigger(
  db: Db,
  row: {
    id: string;
    accountId: number;
    actorId: string;
    method: string;
    body: string;
    correlationId?: string;
  },
): Promise<void> {
  await db.run(
    `INSERT INTO triggers (id, account_id, actor_id, method, body, state, received_at, correlation_id) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)`,
    [
      row.id,
      row.accountId,
      row.actorId,
      row.method,
      row.body,
      Date.now(),
      row.correlationId ?? null,
    ],
  );
}

/** The Cattle Drive correlation ids of these triggers (those that came with one). */
export async function findCorrelationIds(db: Db, ids: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const rows = await db.all<{ id: string; correlation_id: string }>(
      `SELECT id, correlation_id FROM triggers WHERE id IN (${part.map(() => "?").join(", ")}) AND correlation_id IS NOT NULL`,
      part,
    );
    for (const row of rows) found.set(row.id, row.correlation_id);
  }
  return found;
}

/** Claims queued triggers and running ones whose lease ran out (their process died). */
export async function claimTriggers(db: Db, limit: number, leaseMs: number): Promise<TriggerRow[]> {
  const now = Date.now();
  const rows = await db.all<TriggerRow>(
    `UPDATE triggers SET state = 'running', locked_until = ?
     WHERE id IN (
       SELECT id FROM triggers WHERE state IN ('queued', 'running') AND locked_until < ?
       ORDER BY received_at LIMIT ?${skipLocked(db)})
     AND locked_until < ?
     RETURNING ${columns}`,
    [now + leaseMs, now, limit, now],
  );
  return rows.map(toRow);
}

export async function renewTriggerLeases(db: Db, ids: string[], until: number): Promise<void> {
  if (ids.length === 0) return;
  await db.run(
    `UPDATE triggers SET locked_until = ? WHERE state = 'running' AND id IN (${ids.map(() => "?").join(", ")})`,
    [until, ...ids],
  );
}

export async function finishTrigger(db: Db, id: string, error: string | null): Promise<void> {
  await db.run(
    `UPDATE triggers SET state = ?, error = ?, locked_until = 0, finished_at = ? WHERE id = ?`,
    [error === null ? "done" : "failed", error, Date.now(), id],
  );
}

/** Puts a claimed trigger back in the queue, to be claimed again from `at` on. */
export async function requeueTrigger(db: Db, id: string, at: number): Promise<void> {
  await db.run(
    `UPDATE triggers SET state = 'queued', locked_until = ? WHERE id = ? AND state = 'running'`,
    [at, id],
  );
}

export async function findTrigger(
  db: Db,
  accountId: number,
  id: string,
): Promise<TriggerRow | undefined> {
  const row = await db.get<TriggerRow>(
    `SELECT ${columns} FROM triggers WHERE id = ? AND account_id = ?`,
    [id, accountId],
  );
  return row && toRow(row);
}

/**
 * Takes the `n`th send of a trigger's run, in the send's own transaction: false when an earlier
 * run (cut off by a crash) already committed it, so a re-run never sends anything twice.
 */
export async function claimSend(tx: Db, id: string, n: number): Promise<boolean> {
  const result = await tx.run(`UPDATE triggers SET sends = ? WHERE id = ? AND sends < ?`, [
    n,
    id,
    n,
  ]);
  return result.changes > 0;
}

export async function linkEvent(db: Db, id: string, stream: string, seq: number): Promise<void> {
  await db.run(
    `INSERT INTO trigger_events (trigger_id, stream, seq) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
    [id, stream, seq],
  );
}

export async function listTriggerEvents(
  db: Db,
  id: string,
): Promise<Array<{ stream: string; id: number }>> {
  const rows = await db.all<{ stream: string; seq: number }>(
    `SELECT stream, seq FROM trigger_events WHERE trigger_id = ? ORDER BY stream DESC, seq`,
    [id],
  );
  return rows.map((r) => ({ stream: r.stream, id: Number(r.seq) }));
}

/** The stored bodies of the triggers named (those that still exist). */
export async function findTriggerBodies(db: Db, ids: string[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db.all<{ id: string; body: string }>(
      `SELECT id, body FROM triggers WHERE id IN (${chunk.map(() => "?").join(", ")})`,
      chunk,
    );
    for (const row of rows) bodies.set(row.id, row.body);
  }
  return bodies;
}

/** Deletes triggers that finished before `before` (their event links go with them); how many. */
export async function deleteFinishedTriggers(db: Db, before: number): Promise<number> {
  const result = await db.run(
    `DELETE FROM triggers WHERE state IN ('done', 'failed') AND finished_at < ?`,
    [before],
  );
  return result.changes;
}
