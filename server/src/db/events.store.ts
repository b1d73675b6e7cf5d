import type { Db } from "./db.ts";

// The events table and its per-stream counter (event_streams). An append takes the next seq by
// bumping the stream's counter row in the same transaction as the insert: the row lock makes
// appends to one stream take turns, so seqs commit in order and a reader never sees N+1 before
// N (docs/adr/0008-event-log-appends.md). It lives in db/ because the append differs by dialect.

export interface StoredEvent {
  seq: number;
  data: string;
}

// PostgreSQL: one statement, so one round trip and READ COMMITTED (a SERIALIZABLE transaction
// would fail with 40001 when two appends update the same counter row). ON CONFLICT DO UPDATE
// waits for the row lock and then adds to the newest committed value. A group of k events
// takes seqs last-k+1 … last, the events given as one JSON array of their texts.
const appendPostgres = `WITH next AS (
    INSERT INTO event_streams (account_id, stream, seq) VALUES (?, ?, ?)
    ON CONFLICT (account_id, stream) DO UPDATE SET seq = event_streams.seq + excluded.seq
    RETURNING seq)
  INSERT INTO events (account_id, stream, seq, data, created_at)
  SELECT ?, ?, next.seq - ? + d.ord, d.data, ?
  FROM next, json_array_elements_text((?::text)::json) WITH ORDINALITY AS d(data, ord)
  RETURNING seq`;

const bumpCounter = `INSERT INTO event_streams (account_id, stream, seq) VALUES (?, ?, ?)
  ON CONFLICT (account_id, stream) DO UPDATE SET seq = event_streams.seq + excluded.seq
  RETURNING seq`;

/** Stores `jsons` as the stream's next events, in order, in one transaction; the last seq. */
export async function appendEvents(
  db: Db,
  accountId: number,
  stream: string,
  jsons: readonly string[],
): Promise<number> {
  const now = Date.now();
  const k = jsons.length;
  if (db.dialect === "postgres") {
    const rows = await db.all<{ seq: number }>(appendPostgres, [
      accountId,
      stream,
      k,
      accountId,
      stream,
      k,
      now,
      JSON.stringify(jsons),
    ]);
    return Math.max(...rows.map((row) => Number(row.seq)));
  }
  // SQLite: BEGIN IMMEDIATE already serialises every writer; the counter keeps ids growing.
  return db.transaction(async (tx) => {
    const last = Number((await tx.get<{ seq: number }>(bumpCounter, [accountId, stream, k]))!.seq);
    for (let i = 0; i < k; i++) {
      await tx.run(
        `INSERT INTO events (account_id, stream, seq, data, created_at) VALUES (?, ?, ?, ?, ?)`,
        [accountId, stream, last - k + 1 + i, jsons[i], now],
      );
    }
    return last;
  });
}

/** Deletes the stream's events numbered `upTo` and below; returns how many. */
export async function pruneEvents(
  db: Db,
  accountId: number,
  stream: string,
  upTo: number,
): Promise<number> {
  const { changes } = await db.run(
    `DELETE FROM events WHERE account_id = ? AND stream = ? AND seq <= ?`,
    [accountId, stream, upTo],
  );
  return changes;
}

export async function readEventsAfter(
  db: Db,
  accountId: number,
  stream: string,
  afterSeq: number,
  limit: number,
): Promise<StoredEvent[]> {
  const rows = await db.all<{ seq: number | bigint; data: string }>(
    `SELECT seq, data FROM events WHERE account_id = ? AND stream = ? AND seq > ? ORDER BY seq LIMIT ?`,
    [accountId, stream, afterSeq, limit],
  );
  return rows.map((row) => ({ seq: Number(row.seq), data: row.data }));
}

/** The newest seq handed out for a stream (its counter), 0 before the first event. */
export async function lastEventSeq(db: Db, accountId: number, stream: string): Promise<number> {
  const row = await db.get<{ seq: number | bigint }>(
    `SELECT seq FROM event_streams WHERE account_id = ? AND stream = ?`,
    [accountId, stream],
  );
  return Number(row?.seq ?? 0);
}

/** Per minute since `since` (ms) and per stream, how many events the account's streams got. */
export async function countEventsPerMinute(
  db: Db,
  accountId: number,
  since: number,
): Promise<{ minute: number; stream: string; count: number }[]> {
  const rows = await db.all<{
    minute: number | bigint | string;
    stream: string;
    n: number | bigint | string;
  }>(
    `SELECT created_at / 60000 AS minute, stream, COUNT(*) AS n FROM events
     WHERE account_id = ? AND created_at >= ? GROUP BY created_at / 60000, stream`,
    [accountId, since],
  );
  return rows.map((r) => ({ minute: Number(r.minute), stream: r.stream, count: Number(r.n) }));
}
