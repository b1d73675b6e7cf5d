import type { Db } from "../db/db.ts";

// The inbox_refusals and inbound_days tables (docs/server-guide.md#what-the-inbox-refused): each refused
// inbox request, kept per account it was addressed to (account 0: no one), the newest
// KEEP_PER_ACCOUNT of each; and per account, remote host, UTC day and outcome ('accepted' or a
// refusal's reason) a count and the latest time, for a host's inbound side.

export const KEEP_PER_ACCOUNT = 1000;
/** Refusals attributable to no account are kept under this account id (admins see them). */
export const NO_ACCOUNT = 0;
export const DAY_MS = 86_400_000;

export interface RefusalRow {
  accountId: number;
  receivedAt: number;
  client: string;
  inbox: string;
  keyId: string | null;
  keyHost: string | null;
  actorHost: string | null;
  activityId: string | null;
  activityType: string | null;
  status: number;
  reason: string;
  detail: string;
  body: string | null;
}

export interface StoredRefusal extends RefusalRow {
  id: number;
}

/** One count of inbound_days: `n` more requests with `outcome`, the latest at `lastAt`. */
export interface InboundCount {
  accountId: number;
  host: string;
  day: number;
  outcome: string;
  n: number;
  lastAt: number;
}

const COLUMNS = `account_id, received_at, client, inbox, key_id, key_host, actor_host, activity_id, activity_type, status, reason, detail, body`;
const CHUNK = 50;

/** Inserts refusals (trimming is trimRefusals', done now and then rather than per insert). */
export async function insertRefusals(tx: Db, rows: RefusalRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await tx.run(
      `INSERT INTO inbox_refusals (${COLUMNS}) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
      chunk.flatMap((r) => [
        r.accountId,
        r.receivedAt,
        r.client,
        r.inbox,
        r.keyId,
        r.keyHost,
        r.actorHost,
        r.activityId,
        r.activityType,
        r.status,
        r.reason,
        r.detail,
        r.body,
      ]),
    );
  }
}

/**
 * Trims each account back to its newest KEEP_PER_ACCOUNT. It walks that many index entries, so
 * the writer calls it once per TRIM_EVERY new rows of an account, not per insert; reads never
 * show more than the newest KEEP_PER_ACCOUNT meanwhile (listRefusals).
 */
export async function trimRefusals(tx: Db, accountIds: Iterable<number>): Promise<void> {
  for (const accountId of accountIds) {
    await tx.run(
      `DELETE FROM inbox_refusals WHERE account_id = ? AND id < (
         SELECT id FROM inbox_refusals WHERE account_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
      [accountId, accountId, KEEP_PER_ACCOUNT - 1],
    );
  }
}

/** New rows of an account between two trims: it holds at most KEEP_PER_ACCOUNT + this - 1. */
export const TRIM_EVERY = 100;

/** Adds counts (one per key: the caller sums a group's first) to inbound_days. */
export async function addInboundCounts(tx: Db, counts: InboundCount[]): Promise<void> {
  for (let i = 0; i < counts.length; i += CHUNK) {
    const chunk = counts.slice(i, i + CHUNK);
    await tx.run(
      `INSERT INTO inbound_days (account_id, host, day, outcome, n, last_at)
       VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}
       ON CONFLICT (account_id, host, day, outcome) DO UPDATE SET
         n = inbound_days.n + excluded.n,
         last_at = CASE WHEN excluded.last_at > inbound_days.last_at THEN excluded.last_at ELSE inbound_days.last_at END`,
      chunk.flatMap((c) => [c.accountId, c.host, c.day, c.outcome, c.n, c.lastAt]),
    );
  }
}

/** Deletes per-day counts older than a week. */
export async function deleteOldInboundDays(db: Db, now: number): Promise<void> {
  await db.run(`DELETE FROM inbound_days WHERE day <= ?`, [Math.floor(now / DAY_MS) - 7]);
}

export interface RefusalQuery {
  accountIds: number[];
  host?: string;
  reason?: string;
  before?: number;
  limit: number;
}

/** Newest first; `limit` + 1 rows are read so the caller can tell whether there are more. */
export async function listRefusals(db: Db, query: RefusalQuery): Promise<StoredRefusal[]> {
  const where = [
    `account_id IN (${query.accountIds.map(() => "?").join(", ")})`,
    // Rows past an account's newest KEEP_PER_ACCOUNT wait for their trim: never shown.
    `id >= COALESCE((SELECT k.id FROM inbox_refusals k WHERE k.account_id = inbox_refusals.account_id
       ORDER BY k.id DESC LIMIT 1 OFFSET ${KEEP_PER_ACCOUNT - 1}), 0)`,
  ];
  const params: unknown[] = [...query.accountIds];
  if (query.host !== undefined) {
    where.push(`(key_host = ? OR actor_host = ?)`);
    params.push(query.host, query.host);
  }
  if (query.reason !== undefined) {
    where.push(`reason = ?`);
    params.push(query.reason);
  }
  if (query.before !== undefined) {
    where.push(`id < ?`);
    params.push(query.before);
  }
  const rows = await db.all<Record<string, unknown>>(
    `SELECT id, ${COLUMNS} FROM inbox_refusals WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT ?`,
    [...params, query.limit + 1],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    accountId: Number(r.account_id),
    receivedAt: Number(r.received_at),
    client: String(r.client),
    inbox: String(r.inbox),
    keyId: text(r.key_id),
    keyHost: text(r.key_host),
    actorHost: text(r.actor_host),
    activityId: text(r.activity_id),
    activityType: text(r.activity_type),
    status: Number(r.status),
    reason: String(r.reason),
    detail: String(r.detail),
    body: text(r.body),
  }));
}

/** A host's inbound counts for the accounts over the 7 days ending today, by outcome. */
export async function inboundByOutcome(
  db: Db,
  accountIds: number[],
  host: string,
  now: number,
): Promise<Map<string, { n: number; lastAt: number }>> {
  const rows = await db.all<{ outcome: string; n: number; last_at: number }>(
    `SELECT outcome, SUM(n) AS n, MAX(last_at) AS last_at FROM inbound_days
     WHERE account_id IN (${accountIds.map(() => "?").join(", ")}) AND host = ? AND day > ?
     GROUP BY outcome`,
    [...accountIds, host, Math.floor(now / DAY_MS) - 7],
  );
  return new Map(rows.map((r) => [r.outcome, { n: Number(r.n), lastAt: Number(r.last_at) }]));
}

/** Hosts with inbound counts for the accounts over the last 7 days. */
export async function listInboundHosts(db: Db, accountIds: number[], now: number) {
  const rows = await db.all<{ host: string }>(
    `SELECT DISTINCT host FROM inbound_days
     WHERE account_id IN (${accountIds.map(() => "?").join(", ")}) AND day > ?`,
    [...accountIds, Math.floor(now / DAY_MS) - 7],
  );
  return rows.map((r) => r.host);
}

const text = (value: unknown) => (value == null ? null : String(value));
