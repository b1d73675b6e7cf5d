// Which correlation id a trigger came with, so that its outgoing and error events carry it
// (almabtrieb matches on it; cattle_grid keeps it through its exchange). Stored with the trigger
// (triggers.correlation_id); held here, bounded in count and age, by the process that accepted
// it or read it back for an event another process stored (events.ts learnCorrelations). An event
// with no known trigger gets a new id.

import { randomUUID } from "node:crypto";

const MAX_ENTRIES = 10_000;
const MAX_AGE_MS = 10 * 60_000;

export interface Correlations {
  remember(triggerId: string, correlationId: string): void;
  knows(triggerId: string): boolean;
  /** The trigger's correlation id, or a fresh one. */
  forTrigger(triggerId: unknown): string;
}

export function createCorrelations(now: () => number = Date.now): Correlations {
  // Insertion order is age order: the oldest entries are the first ones.
  const entries = new Map<string, { id: string; at: number }>();
  const trim = () => {
    const cutoff = now() - MAX_AGE_MS;
    for (const [key, entry] of entries) {
      if (entries.size <= MAX_ENTRIES && entry.at >= cutoff) break;
      entries.delete(key);
    }
  };
  return {
    remember(triggerId, correlationId) {
      entries.set(triggerId, { id: correlationId, at: now() });
      trim();
    },
    knows: (triggerId) => entries.has(triggerId),
    forTrigger(triggerId) {
      if (typeof triggerId === "string") {
        const entry = entries.get(triggerId);
        if (entry) return entry.id;
      }
      return randomUUID();
    },
  };
}
