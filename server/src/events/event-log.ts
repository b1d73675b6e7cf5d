// Per account and stream, a numbered, capped history of events. append() stores and announces;
// readAfter() is what SSE replays and what live subscribers read when the bus tells them to.

import type { BusMessage, EventBus } from "../db/bus.ts";
import { UniqueViolation, type Db } from "../db/db.ts";
import { insertEvent, lastEventSeq, readEventsAfter, type StoredEvent } from "./events.store.ts";
import { streamNames, type StreamName } from "./streams.ts";
import { fillTriggerBodies } from "./trigger-bodies.ts";

export type { StoredEvent };

/** A bus message about one of the streams (other names on the bus are not ours and are dropped). */
export type StreamMessage = BusMessage & { stream: StreamName };

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
  subscribe(listener: (message: StreamMessage) => void): () => void;
}

export function createEventLog(db: Db, bus: EventBus, options: { cap: number }): EventLog {
  const insert = (accountId: number, stream: StreamName, json: string) =>
    insertEvent(db, accountId, stream, json, options.cap);

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
    readAfter: async (accountId, stream, afterSeq, limit = 500) => {
      const rows = await readEventsAfter(db, accountId, stream, afterSeq, limit);
      return stream === "error" ? fillTriggerBodies(db, rows) : rows;
    },
    lastSeq: (accountId, stream) => lastEventSeq(db, accountId, stream),
    subscribe: (listener) =>
      bus.subscribe((message) => {
        if ((streamNames as readonly string[]).includes(message.stream))
          listener(message as StreamMessage);
      }),
  };
}
