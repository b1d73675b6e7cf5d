import type { Db } from "../db/db.ts";

// What waits in the delivery queue for an account's actors (docs/server-guide.md#delivery, "Backlog").

export interface BacklogRow {
  host: string;
  waiting: number;
  inFlight: number;
  retrying: number;
  nearGiveUp: number;
  oldest: number | null;
}

/** Per host: unfinished deliveries, those claimed now, retrying, one attempt from giving up. */
export async function backlogByHost(
  db: Db,
  accountId: number,
  now: number,
  lastAttempt: number,
): Promise<BacklogRow[]> {
  const rows = await db.all<Record<string, unknown>>(
    `SELECT host,
       SUM(CASE WHEN locked_until > ? THEN 0 ELSE 1 END) AS waiting,
       SUM(CASE WHEN locked_until > ? THEN 1 ELSE 0 END) AS in_flight,
       SUM(CASE WHEN state = 'retrying' THEN 1 ELSE 0 END) AS retrying,
       SUM(CASE WHEN state = 'retrying' AND attempt >= ? THEN 1 ELSE 0 END) AS near_give_up,
       MIN(CASE WHEN locked_until > ? THEN NULL ELSE created_at END) AS oldest
     FROM deliveries
     WHERE account_id = ? AND state IN ('queued', 'retrying', 'stopped')
     GROUP BY host`,
    [now, now, lastAttempt, now, accountId],
  );
  return rows.map((r) => ({
    host: String(r.host),
    waiting: Number(r.waiting),
    inFlight: Number(r.in_flight),
    retrying: Number(r.retrying),
    nearGiveUp: Number(r.near_give_up),
    oldest: r.oldest == null ? null : Number(r.oldest),
  }));
}
