// Per account and stream, a numbered, capped history of events. append() stores and announces;
// readAfter() is what SSE replays and what live subscribers read when the bus tells them to.

import { UniqueViolation, type Db } from "../db/db.ts";
import type { StreamName } from "../fe/wire.ts";
import type { BusMessage, EventBus } from "./bus.ts";

export interface StoredEvent {
  seq: number;
  data: string;
}

export interface EventLog {
  /** Stores `data` as the next event of the stream, prunes beyond the cap, fans out; returns the seq. */
  append(accountId: number, stream: StreamName, data: object): Promise<number>;
  /** Events after `afterSeq`, oldest first, at most `limit` (data is the stored JSON text). */
  readAfter(
    accountId: number,
    stream: StreamName,
    afterSeq: number,
    limit?: number,
  ): Promise<StoredEvent[]>;
  /** The newest seq of a stream, 0 when empty. */
  lastSeq(accountId: number, stream: StreamName): Promise<number>;
  subscribe(listener: (message: BusMessage) => void): () => void;
}

export function createEventLog(db: Db, bus: EventBus, options: { cap: number }): EventLog {
  const insert = (accountId: number, stream: StreamName, json: string) =>
    db.transaction(async (tx) => {
      const row = await tx.get<{ seq: number | bigint | null }>(
        `SELECT MAX(seq) AS seq FROM events WHERE account_id = ? AND stream = ?`,
        [accountId, stream],
      );
      const seq = Number(row?.seq ?? 0) + 1;
      await tx.run(
        `INSERT INTO events (account_id, stream, seq, data, created_at) VALUES (?, ?, ?, ?, ?)`,
        [accountId, stream, seq, json, Date.now()],
      );
      if (seq > options.cap) {
        await tx.run(`DELETE FROM events WHERE account_id = ? AND stream = ? AND seq <= ?`, [
          accountId,
          stream,
          seq - options.cap,
        ]);
      }
      return seq;
    });

  return {
    async append(accountId, stream, data) {
      const json = JSON.stringify(data);
      let seq: number | undefined;
      // Two processes sharing PostgreSQL may pick the same next seq; the loser tries again.
      for (let attempt = 0; seq === undefined; attempt++) {
        try {
          seq = await insert(accountId, stream, json);
        } catch (error) {
          if (!(error instanceof UniqueViolation) || attempt >= 10) throw error;
        }
      }
      await bus.publish({ accountId, stream, seq });
      return seq;
    },
    async readAfter(accountId, stream, afterSeq, limit = 500) {
      const rows = await db.all<{ seq: number | bigint; data: string }>(
        `SELECT seq, data FROM events WHERE account_id = ? AND stream = ? AND seq > ? ORDER BY seq LIMIT ?`,
        [accountId, stream, afterSeq, limit],
      );
      return rows.map((row) => ({ seq: Number(row.seq), data: row.data }));
    },
    async lastSeq(accountId, stream) {
      const row = await db.get<{ seq: number | bigint | null }>(
        `SELECT MAX(seq) AS seq FROM events WHERE account_id = ? AND stream = ?`,
        [accountId, stream],
      );
      return Number(row?.seq ?? 0);
    },
    subscribe: (listener) => bus.subscribe(listener),
  };
}
