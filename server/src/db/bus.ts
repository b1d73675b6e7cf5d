// Live fan-out of "a new event was stored". The message only names the event; subscribers read
// the event itself from the store, so a bus never has to carry or order data. (The process that
// stored it hands its own live streams the rows first: events/event-log.ts.) db/ opens the bus
// that fits the database: in-process for SQLite (one process owns the file), LISTEN/NOTIFY for
// PostgreSQL (several processes share it).

import { getLogger } from "@logtape/logtape";

const log = getLogger(["corral", "bus"]);

export interface BusMessage {
  accountId: number;
  /** The stream's name (events/streams.ts); the bus does not care which. */
  stream: string;
  seq: number;
}

export interface EventBus {
  publish(message: BusMessage): Promise<void>;
  /** Calls `listener` for every message published from now on; returns the unsubscribe. */
  subscribe(listener: (message: BusMessage) => void): () => void;
  /** Releases connections, where the bus has any. */
  close?(): Promise<void>;
  /**
   * PostgreSQL's bus: the NOTIFY channel it listens on. An event append names it, so that the
   * append's own statement announces its events as it commits (db/events.store.ts), and the
   * event log does not publish() them again: one statement, one commit, no second round trip.
   */
  appendChannel?: string;
}

/** A bus for a single process. */
export function createMemoryBus(): EventBus {
  const listeners = new Set<(message: BusMessage) => void>();
  return {
    async publish(message) {
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
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
