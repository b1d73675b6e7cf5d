import type { Db } from "./db.ts";

// What /metrics reports about the delivery queue, read at scrape time: how many rows wait and
// since when the oldest has. Kept apart from deliveries.store.ts, which the queue itself owns.

export interface QueueStats {
  depth: number;
  /** created_at of the oldest row (ms since the epoch), null when the queue is empty. */
  oldestCreatedAt: number | null;
}

export async function readQueueStats(db: Db): Promise<QueueStats> {
  const row = await db.get<{ depth: number | bigint | string; oldest: number | bigint | null }>(
    `SELECT COUNT(*) AS depth, MIN(created_at) AS oldest FROM deliveries
     WHERE state IN ('queued', 'retrying', 'stopped')`,
  );
  return {
    depth: Number(row?.depth ?? 0),
    oldestCreatedAt: row?.oldest == null ? null : Number(row.oldest),
  };
}
