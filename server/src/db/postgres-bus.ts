import { getLogger } from "@logtape/logtape";
import type { BusMessage, EventBus } from "./bus.ts";
import { createSql, probe } from "./postgres.ts";

const log = getLogger(["corral", "bus"]);

// The event bus for several processes sharing one PostgreSQL database: publish is a NOTIFY,
// and every process LISTENs, so a subscriber anywhere hears every event, its own process's
// included (they come back through PostgreSQL too, which keeps one path and one order).
// NOTIFY reaches listeners of the same database only, so separate databases never mix.
// Publish after the event's transaction committed: the bus has connections of its own. Event
// appends announce themselves instead, in their own statement (appendChannel, db/events.store.ts):
// a NOTIFY is a transaction of its own, with a commit (and a WAL flush) that the append's commit
// already makes.

const CHANNEL = "corral_events";

export type PostgresBus = EventBus & { close(): Promise<void> };

/** Connects, starts listening, and returns the bus; fails with one readable line when PostgreSQL is unreachable. */
export async function createPostgresBus(
  url: string,
  options: { connectTimeout?: number } = {},
): Promise<PostgresBus> {
  const seconds = options.connectTimeout ?? 5;
  // Two connections suffice: postgres.js opens the listening one by itself, beside the pool.
  const sql = createSql(url, { max: 2, connectTimeout: seconds });
  await probe(sql, url, seconds);
  const listeners = new Set<(message: BusMessage) => void>();

  const deliver = (payload: string) => {
    const message = parseMessage(payload);
    if (!message) return;
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch (error) {
        // One broken subscriber must not starve the others.
        log.error("event bus listener failed: {error}", {
          error: (error as Error)?.message ?? String(error),
        });
      }
    }
  };
  try {
    await sql.listen(CHANNEL, deliver);
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw error;
  }

  return {
    appendChannel: CHANNEL,
    async publish(message) {
      const { accountId, stream, seq } = message;
      await sql.notify(CHANNEL, JSON.stringify({ accountId, stream, seq }));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await sql.end({ timeout: 5 });
    },
  };
}

// Anything on the channel that is not our message (a hand-typed NOTIFY, another version) is ignored.
function parseMessage(payload: string): BusMessage | undefined {
  try {
    const value = JSON.parse(payload) as Partial<BusMessage>;
    if (
      typeof value.accountId !== "number" ||
      typeof value.seq !== "number" ||
      typeof value.stream !== "string"
    )
      return undefined;
    return {
      accountId: value.accountId,
      stream: value.stream,
      seq: value.seq,
    };
  } catch {
    return undefined;
  }
}
