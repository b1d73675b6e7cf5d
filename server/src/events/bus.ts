// Live fan-out of "a new event was stored". The message only names the event; subscribers read
// the event itself from the store, so a bus never has to carry or order data. The in-process bus
// here serves one process; server/src/db/postgres-bus.ts implements the same interface with
// LISTEN/NOTIFY so that several processes sharing one database see each other's events.

import type { StreamName } from "../fe/wire.ts";

export interface BusMessage {
  accountId: number;
  stream: StreamName;
  seq: number;
}

export interface EventBus {
  publish(message: BusMessage): Promise<void>;
  /** Calls `listener` for every message published from now on; returns the unsubscribe. */
  subscribe(listener: (message: BusMessage) => void): () => void;
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
          console.error("event bus listener failed:", error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
