// Reading the retained event log back (docs/server-guide.md#history, and cattle_grid's own history):
// one stream, or several merged newest first by (time, stream, seq), the order of history ids.
// Merging takes a prefix of each stream's newest-first list, so a cursor of one bound per
// stream (the lowest seq handed out) continues exactly where a page ended.

import type { Db } from "../db/db.ts";
import {
  queryEvents,
  readEventsAfterPosition,
  type EventQuery,
  type StoredEvent,
} from "../db/events.store.ts";
import { historyId, type HistoryPosition } from "./history-id.ts";
import type { StreamName } from "./streams.ts";
import { fillTriggerBodies } from "./trigger-bodies.ts";

export interface HistoryEvent extends StoredEvent {
  stream: StreamName;
}

export type HistoryFilters = Omit<
  EventQuery,
  "accountId" | "stream" | "limit" | "beforeSeq" | "afterSeq"
>;

/** Per stream, an exclusive bound: before (older pages) or after (newer ones). */
export type StreamBounds = Partial<Record<StreamName, number>>;

export const historyIdOf = (event: HistoryEvent) =>
  historyId(event.createdAt, event.stream, event.seq);

/** Greater first: later time, then later-named stream, then higher seq. */
function newerFirst(a: HistoryEvent, b: HistoryEvent): number {
  return (
    b.createdAt - a.createdAt ||
    (b.stream < a.stream ? -1 : b.stream > a.stream ? 1 : 0) ||
    b.seq - a.seq
  );
}

/** Merges lists each sorted newest first, taking from their heads, at most `limit`. */
function mergeNewestFirst(lists: HistoryEvent[][], limit: number): HistoryEvent[] {
  const heads = lists.map(() => 0);
  const out: HistoryEvent[] = [];
  while (out.length < limit) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const head = lists[i]![heads[i]!];
      if (head && (best < 0 || newerFirst(head, lists[best]![heads[best]!]!) < 0)) best = i;
    }
    if (best < 0) break;
    out.push(lists[best]![heads[best]!++]!);
  }
  return out;
}

async function readStream(
  db: Db,
  query: EventQuery & { stream: StreamName },
): Promise<HistoryEvent[]> {
  let rows = await queryEvents(db, query);
  if (query.stream === "error") rows = await fillTriggerBodies(db, rows);
  return rows.map((row) => ({ ...row, stream: query.stream }));
}

export interface HistoryPage {
  events: HistoryEvent[];
  more: boolean;
  /** For several streams: the bounds that continue past this page in its direction. */
  bounds: StreamBounds;
}

/**
 * Newest first, at most `limit`: `streams` merged, below `before` (or, with `after`, the oldest
 * `limit` above it), matching `filters`.
 */
export async function readHistory(
  db: Db,
  accountId: number,
  streams: readonly StreamName[],
  page: { limit: number; before?: StreamBounds; after?: StreamBounds },
  filters: HistoryFilters,
): Promise<HistoryPage> {
  const lists = await Promise.all(
    streams.map((stream) =>
      readStream(db, {
        ...filters,
        accountId,
        stream,
        limit: page.limit + 1,
        beforeSeq: page.before?.[stream],
        // A stream the cursor does not name: from its start, as everything in it is newer.
        afterSeq: page.after ? (page.after[stream] ?? 0) : undefined,
      }),
    ),
  );
  let events: HistoryEvent[];
  let more: boolean;
  if (page.after) {
    // The oldest `limit` above the bounds: merged oldest first, then turned round.
    const oldestFirst = lists.map((list) => [...list].reverse());
    const merged = mergeOldestFirst(oldestFirst, page.limit + 1);
    more = merged.length > page.limit;
    events = merged.slice(0, page.limit).reverse();
  } else {
    const merged = mergeNewestFirst(lists, page.limit + 1);
    more = merged.length > page.limit;
    events = merged.slice(0, page.limit);
  }
  const bounds: StreamBounds = {};
  for (const stream of streams) {
    const mine = events.filter((e) => e.stream === stream).map((e) => e.seq);
    const given = page.after ? page.after[stream] : page.before?.[stream];
    const edge = mine.length === 0 ? given : page.after ? Math.max(...mine) : Math.min(...mine);
    if (edge !== undefined) bounds[stream] = edge;
  }
  return { events, more, bounds };
}

function mergeOldestFirst(lists: HistoryEvent[][], limit: number): HistoryEvent[] {
  const heads = lists.map(() => 0);
  const out: HistoryEvent[] = [];
  while (out.length < limit) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const head = lists[i]![heads[i]!];
      if (head && (best < 0 || newerFirst(head, lists[best]![heads[best]!]!) > 0)) best = i;
    }
    if (best < 0) break;
    out.push(lists[best]![heads[best]!++]!);
  }
  return out;
}

/** The streams cattle_grid keeps history of, and its combined stream carries. */
export const combinedStreams = ["incoming", "outgoing"] as const satisfies readonly StreamName[];

/** How many events GET /fe/account/history answers after a start_from (cattle_grid: all). */
export const HISTORY_AFTER_LIMIT = 100;
/** ... and without one (cattle_grid's figure). */
export const HISTORY_NEWEST = 10;

/**
 * cattle_grid's history: incoming and outgoing, newest first; its 10 newest, or after
 * `startFrom` the oldest HISTORY_AFTER_LIMIT after that position (so that the newest of them
 * continues the catch-up).
 */
export async function readCattleGridHistory(
  db: Db,
  accountId: number,
  startFrom: HistoryPosition | null,
): Promise<HistoryEvent[]> {
  if (!startFrom) {
    return (await readHistory(db, accountId, combinedStreams, { limit: HISTORY_NEWEST }, {}))
      .events;
  }
  const lists = await Promise.all(
    combinedStreams.map(async (stream) =>
      (await readEventsAfterPosition(db, accountId, stream, startFrom, HISTORY_AFTER_LIMIT)).map(
        (row) => ({ ...row, stream }),
      ),
    ),
  );
  // Each list is oldest first by time; merge oldest first, keep the first ones, answer newest first.
  const all = lists.flat().sort((a, b) => newerFirst(b, a));
  return all.slice(0, HISTORY_AFTER_LIMIT).reverse();
}
