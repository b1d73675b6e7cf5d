import type { Db } from "../db/db.ts";

// The hosts and host_days tables: per account and remote host, the operator's hold (stopped),
// when the current run of failures began, the latest success and failure, and failed attempts
// per UTC day (failures7d, the console's chart).

export interface HostRow {
  host: string;
  stopped: boolean;
  failing_since: number | null;
  last_success_at: number | null;
  last_failure_at: number | null;
  /** Why the latest failure failed, in words. */
  last_error: string | null;
  /** The hold of a failing host (docs/server-guide.md#delivery): since when, its next probe, why. */
  held_since: number | null;
  next_probe_at: number | null;
  hold_reason: string | null;
  /** Failed attempts since the latest success (the current run of failures). */
  run_failures: number;
}

const DAY_MS = 86_400_000;

const toRow = (r: Record<string, unknown>): HostRow => ({
  host: String(r.host),
  stopped: Number(r.stopped) === 1,
  failing_since: r.failing_since == null ? null : Number(r.failing_since),
  last_success_at: r.last_success_at == null ? null : Number(r.last_success_at),
  last_failure_at: r.last_failure_at == null ? null : Number(r.last_failure_at),
  last_error: r.last_error == null ? null : String(r.last_error),
  held_since: r.held_since == null ? null : Number(r.held_since),
  next_probe_at: r.next_probe_at == null ? null : Number(r.next_probe_at),
  hold_reason: r.hold_reason == null ? null : String(r.hold_reason),
  run_failures: Number(r.run_failures ?? 0),
});

const HOST_COLUMNS = `host, stopped, failing_since, last_success_at, last_failure_at, last_error, held_since, next_probe_at, hold_reason, run_failures`;

/** The host's row, made (ok, not stopped) when the account first delivers there. */
export async function ensureHost(tx: Db, accountId: number, host: string): Promise<HostRow> {
  await tx.run(`INSERT INTO hosts (account_id, host) VALUES (?, ?) ON CONFLICT DO NOTHING`, [
    accountId,
    host,
  ]);
  return (await findHost(tx, accountId, host))!;
}

export async function findHost(
  db: Db,
  accountId: number,
  host: string,
): Promise<HostRow | undefined> {
  const row = await db.get(`SELECT ${HOST_COLUMNS} FROM hosts WHERE account_id = ? AND host = ?`, [
    accountId,
    host,
  ]);
  return row && toRow(row);
}

export async function listHostRows(db: Db, accountId: number): Promise<HostRow[]> {
  const rows = await db.all(
    `SELECT ${HOST_COLUMNS} FROM hosts WHERE account_id = ? ORDER BY host`,
    [accountId],
  );
  return rows.map(toRow);
}

/**
 * A success, in the outcome's transaction. Busy hosts succeed many times a second: the row is
 * written only when it changes state or its time is a second old, so parallel outcomes for one
 * host rarely contend for it.
 */
export async function noteHostSuccess(
  tx: Db,
  accountId: number,
  host: string,
  now: number,
): Promise<void> {
  await tx.run(
    `UPDATE hosts SET last_success_at = ?, failing_since = NULL, run_failures = 0,
       held_since = NULL, next_probe_at = NULL, hold_reason = NULL
     WHERE account_id = ? AND host = ?
       AND (failing_since IS NOT NULL OR last_success_at IS NULL OR last_success_at < ?)`,
    [now, accountId, host, now - 1000],
  );
}

/** A failed attempt, in the outcome's transaction: the host's row as it now stands. */
export async function noteHostFailure(
  tx: Db,
  accountId: number,
  host: string,
  now: number,
  error: string | null = null,
): Promise<HostRow> {
  await ensureHost(tx, accountId, host);
  await tx.run(
    `UPDATE hosts SET last_failure_at = ?, failing_since = COALESCE(failing_since, ?), last_error = ?, run_failures = run_failures + 1 WHERE account_id = ? AND host = ?`,
    [now, now, error, accountId, host],
  );
  await tx.run(
    `INSERT INTO host_days (account_id, host, day, failures) VALUES (?, ?, ?, 1)
     ON CONFLICT (account_id, host, day) DO UPDATE SET failures = host_days.failures + 1`,
    [accountId, host, Math.floor(now / DAY_MS)],
  );
  return (await findHost(tx, accountId, host))!;
}

export async function setHostStopped(
  tx: Db,
  accountId: number,
  host: string,
  stopped: boolean,
): Promise<void> {
  await tx.run(`UPDATE hosts SET stopped = ? WHERE account_id = ? AND host = ?`, [
    stopped ? 1 : 0,
    accountId,
    host,
  ]);
}

/** "Retry now" lifts the circuit breaker: the next failure starts a new run of failures. */
export async function clearFailingSince(tx: Db, accountId: number, host: string): Promise<void> {
  await tx.run(
    `UPDATE hosts SET failing_since = NULL, run_failures = 0, held_since = NULL, next_probe_at = NULL, hold_reason = NULL
     WHERE account_id = ? AND host = ?`,
    [accountId, host],
  );
  await tx.run(`DELETE FROM gone_inboxes WHERE account_id = ? AND host = ?`, [accountId, host]);
}

/** Holds a failing host (or moves its next probe): since, next probe, why. */
export async function setHold(
  tx: Db,
  accountId: number,
  host: string,
  hold: { since: number; nextProbeAt: number; reason: string },
): Promise<void> {
  await tx.run(
    `UPDATE hosts SET held_since = ?, next_probe_at = ?, hold_reason = ? WHERE account_id = ? AND host = ?`,
    [hold.since, hold.nextProbeAt, hold.reason, accountId, host],
  );
}

/** An inbox that answered 410: not tried for later activities until its host answers again. */
export async function markInboxGone(
  tx: Db,
  accountId: number,
  host: string,
  inbox: string,
  now: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO gone_inboxes (account_id, host, inbox, since) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    [accountId, host, inbox, now],
  );
}

/** A success on the host: its gone inboxes may be tried again. */
export async function clearGoneInboxes(tx: Db, accountId: number, host: string): Promise<void> {
  await tx.run(`DELETE FROM gone_inboxes WHERE account_id = ? AND host = ?`, [accountId, host]);
}

/** Which of `inboxes` answered 410 (and their host has not answered since), with since when. */
export async function findGoneInboxes(
  tx: Db,
  accountId: number,
  inboxes: string[],
): Promise<Map<string, number>> {
  const gone = new Map<string, number>();
  for (let i = 0; i < inboxes.length; i += 500) {
    const chunk = inboxes.slice(i, i + 500);
    const rows = await tx.all<{ inbox: string; since: number }>(
      `SELECT inbox, since FROM gone_inboxes WHERE account_id = ? AND inbox IN (${chunk.map(() => "?").join(", ")})`,
      [accountId, ...chunk],
    );
    for (const row of rows) gone.set(row.inbox, Number(row.since));
  }
  return gone;
}

/** Failed attempts per host and day over the 7 days ending today, oldest first. */
export async function failuresByDay(
  db: Db,
  accountId: number,
  now: number,
): Promise<Map<string, number[]>> {
  const today = Math.floor(now / DAY_MS);
  const rows = await db.all<{ host: string; day: number; failures: number }>(
    `SELECT host, day, failures FROM host_days WHERE account_id = ? AND day > ?`,
    [accountId, today - 7],
  );
  const byHost = new Map<string, number[]>();
  for (const row of rows) {
    const days = byHost.get(row.host) ?? Array<number>(7).fill(0);
    days[6 - (today - Number(row.day))] = Number(row.failures);
    byHost.set(row.host, days);
  }
  return byHost;
}

/** Deletes per-day counts older than a week. */
export async function deleteOldHostDays(db: Db, now: number): Promise<void> {
  await db.run(`DELETE FROM host_days WHERE day <= ?`, [Math.floor(now / DAY_MS) - 7]);
}
