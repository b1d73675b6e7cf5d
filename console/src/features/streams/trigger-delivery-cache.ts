import { isTriggerSettled, type TriggerRecord } from "../../lib/trigger-record.ts";
import { readDeliveryState } from "./message-summary.ts";

// The delivery state of outgoing messages, read from their trigger's record
// (GET /fe/actor/triggers/{id}). Only the cards on screen ask (the list is virtualised), asks are
// gathered for a moment and sent a few at a time, answers are kept, and only a call still under
// way is asked about again. Thousands of messages in a stream cost nothing until scrolled to.

/** The record; null when the server has none (not asked again); throws when it may pass. */
export type FetchRecord = (id: string) => Promise<TriggerRecord | null>;

export type CacheOptions = {
  /** How long asks are gathered before any is sent. */
  gatherMs: number;
  /** How many records are asked for at once. */
  concurrency: number;
  /** How soon a call still under way is asked about again (ten times that after 30 asks). */
  refreshMs: number;
  /**
   * How old a settled answer may be before a card mounted again asks once more: "Redeliver" or
   * "Resume delivery" change a settled call.
   */
  staleMs: number;
};

type Entry = {
  state: string | null;
  /** Nothing will change without the operator: not asked again while shown. */
  settled: boolean;
  /** The server has no record (a proxy, an older server): never asked again. */
  unreported: boolean;
  asks: number;
  answeredAt: number;
  /** Waiting to be asked, being asked, or waiting to be asked again. */
  pending: boolean;
  listeners: Set<() => void>;
};

export type TriggerDeliveryCache = {
  subscribe(id: string, listener: () => void): () => void;
  /** "delivered 3/3", "retrying", "failed", "stopped", or null while unknown. */
  read(id: string): string | null;
};

export function createTriggerDeliveryCache(
  fetchRecord: FetchRecord,
  options: CacheOptions,
): TriggerDeliveryCache {
  const entries = new Map<string, Entry>();
  const due = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight = 0;

  const wanted = (id: string) => (entries.get(id)?.listeners.size ?? 0) > 0;

  const schedule = (delay: number) => {
    if (timer === null) timer = setTimeout(pump, delay);
  };

  function pump() {
    timer = null;
    drain();
  }

  function drain() {
    for (const id of due) {
      if (inFlight >= options.concurrency) return;
      due.delete(id);
      if (wanted(id)) void ask(id);
      else entries.get(id)!.pending = false;
    }
  }

  async function ask(id: string) {
    inFlight += 1;
    // Thrown: the server could not be asked (down, a 5xx), so ask again later.
    const record = await fetchRecord(id).catch(() => undefined);
    inFlight -= 1;
    const entry = entries.get(id)!;
    entry.asks += 1;
    entry.answeredAt = Date.now();
    entry.unreported = record === null;
    entry.settled = record === null || (record !== undefined && isFinal(record));
    const state = record ? readDeliveryState({ deliveries: record.deliveries }) : entry.state;
    if (state !== entry.state) {
      entry.state = state;
      for (const listener of entry.listeners) listener();
    }
    if (entry.settled) entry.pending = false;
    else
      setTimeout(
        () => {
          if (wanted(id)) due.add(id);
          else entry.pending = false;
          schedule(0);
        },
        options.refreshMs * (entry.asks < 30 ? 1 : 10),
      );
    drain();
  }

  return {
    subscribe(id, listener) {
      const entry = entries.get(id) ?? {
        state: null,
        settled: false,
        unreported: false,
        asks: 0,
        answeredAt: 0,
        pending: false,
        listeners: new Set(),
      };
      entries.set(id, entry);
      entry.listeners.add(listener);
      const stale = Date.now() - entry.answeredAt > options.staleMs;
      if (!entry.pending && !entry.unreported && (!entry.settled || stale)) {
        entry.pending = true;
        due.add(id);
        schedule(options.gatherMs);
      }
      return () => void entry.listeners.delete(listener);
    },
    read: (id) => entries.get(id)?.state ?? null,
  };
}

/**
 * Whether the shown state can only change through the operator's "Redeliver". A stopped delivery
 * is settled for the Perform page, which is left once read; a stream stays open while someone
 * resumes the host, perhaps in another tab, so it keeps asking.
 */
function isFinal(record: TriggerRecord): boolean {
  return isTriggerSettled(record) && !record.deliveries.some((d) => d.state === "stopped");
}
