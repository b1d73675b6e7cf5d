import type { Db } from "../db/db.ts";
import type { StreamName } from "./streams.ts";

// The events table: per account and stream, numbered from 1, pruned beyond a cap.

export interface StoredEvent {
  seq: number;
  data: string;
}

/** Stores `json` as the stream's next event and prunes beyond `cap`, in one transaction; the seq. */
export function insertEvent(
  db: Db,
  accountId: number,
  stream: StreamName,
  json: string,
  cap: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const seq = (await lastEventSeq(tx, accountId, stream)) + 1;
    await tx.run(
      `INSERT INTO events (account_id, stream, seq, data, created_at) VALUES (?, ?, ?, ?, ?)`,
      [accountId, stream, seq, json, Date.now()],
    );
    if (seq > cap) {
      await tx.run(`DELETE FROM events WHERE account_id = ? AND stream = ? AND seq <= ?`, [
        accountId,
        stream,
        seq - cap,
      ]);
    }
    return seq;
  });
}

export async function readEventsAfter(
  db: Db,
  accountId: number,
  stream: StreamName,
  afterSeq: number,
  limit: number,
): Promise<StoredEvent[]> {
  const rows = await db.all<{ seq: number | bigint; data: string }>(
    `SELECT seq, data FROM events WHERE account_id = ? AND stream = ? AND seq > ? ORDER BY seq LIMIT ?`,
    [accountId, stream, afterSeq, limit],
  );
  return rows.map((row) => ({ seq: Number(row.seq), data: row.data }));
}

/** The newest seq of a stream, 0 when empty. */
export async function lastEventSeq(db: Db, accountId: number, stream: StreamName): Promise<number> {
  const row = await db.get<{ seq: number | bigint | null }>(
    `SELECT MAX(seq) AS seq FROM events WHERE account_id = ? AND stream = ?`,
    [accountId, stream],
  );
  return Number(row?.seq ?? 0);
}

/** Per minute since `since` (ms) and per stream, how many events the account's streams got. */
export async function countEventsPerMinute(
  db: Db,
  accountId: number,
  since: number,
): Promise<{ minute: number; stream: StreamName; count: number }[]> {
  const rows = await db.all<{
    minute: number | bigint | string;
    stream: string;
    n: number | bigint | string;
  }>(
    `SELECT created_at / 60000 AS minute, stream, COUNT(*) AS n FROM events
     WHERE account_id = ? AND created_at >= ? GROUP BY created_at / 60000, stream`,
    [accountId, since],
  );
  return rows.map((r) => ({
    minute: Number(r.minute),
    stream: r.stream as StreamName,
    count: Number(r.n),
  }));
}
