// "Search messages" and "From"/"To" over everything the server retains (docs/server-guide.md#history:
// `q`, `since`, `until`), not only what this browser holds. Each stream of the page is asked for
// all its matches (page after page, the server keeps a bounded number); typing waits a moment
// before asking, and that wait shows as searching too.
import { useEffect, useState } from "react";
import {
  fetchAllMatches,
  fetchRetention,
  type EventPage,
  type RetainedEvent,
  type Retention,
} from "../../lib/streams/event-history.ts";
import { readActivityType } from "../../lib/streams/stream-activity-types.ts";
import {
  STREAM_TYPES,
  type StreamMessage,
  type StreamType,
} from "../../lib/streams/stream-store.ts";
import type { StreamSource } from "./use-live-messages.ts";

export const SEARCH_SETTLE_MS = 300;

export type TimeRange = { since: number | null; until: number | null };

export type ServerSearch = {
  /** A text or a time range is set: the list shows the server's matches. */
  active: boolean;
  /** The server's matches, oldest first; null until the first answer (or without the route). */
  matches: readonly StreamMessage[] | null;
  /** What the server kept when asked: how many events, and each stream's newest id then. */
  retained: { count: number; newestIds: Partial<Record<StreamType, number>> } | null;
  waiting: boolean;
  /** Why the search failed, in words. */
  error: string | null;
  /** The server keeps no searchable history (proxy mode in front of cattle_grid). */
  absent: boolean;
};

type Answer = {
  key: string;
  matches: StreamMessage[] | null;
  retained: ServerSearch["retained"];
  error: string | null;
  absent: boolean;
};

export function searchKey(source: StreamSource, text: string, range: TimeRange): string {
  return JSON.stringify([source, text.trim().toLowerCase(), range.since, range.until]);
}

export function useServerSearch(
  source: StreamSource,
  text: string,
  range: TimeRange,
): ServerSearch {
  const active = text.trim() !== "" || range.since !== null || range.until !== null;
  const key = searchKey(source, text, range);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [absent, setAbsent] = useState(false);

  useEffect(() => {
    if (!active || absent) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const streams = source === "all" ? STREAM_TYPES : [source];
      const query = {
        text: text.trim(),
        since: range.since ?? undefined,
        until: range.until ?? undefined,
      };
      const asked = Promise.all([
        Promise.all(streams.map((s) => fetchAllMatches(s, query, controller.signal))),
        Promise.all(streams.map((s) => fetchRetention(s, controller.signal))),
      ]);
      void asked
        .then(([pages, retentions]) => {
          if (controller.signal.aborted) return;
          const failed = [...pages, ...retentions].find((page) => !page.ok);
          if (failed && !failed.ok) {
            if (failed.absent) setAbsent(true);
            setAnswer({
              key,
              matches: null,
              retained: null,
              error: failed.absent ? null : failed.reason,
              absent: failed.absent,
            });
            return;
          }
          const events = (pages as EventPage[]).flatMap((page) => (page.ok ? page.events : []));
          const retained = { count: 0, newestIds: {} as Partial<Record<StreamType, number>> };
          (retentions as Retention[]).forEach((r, i) => {
            if (!r.ok) return;
            retained.count += r.count;
            if (r.newestId !== null) retained.newestIds[streams[i]!] = r.newestId;
          });
          setAnswer({ key, matches: toMessages(events), retained, error: null, absent: false });
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const reason = error instanceof Error ? error.message : String(error);
          setAnswer({
            key,
            matches: null,
            retained: null,
            error: `The search failed: ${reason}`,
            absent: false,
          });
        });
    }, SEARCH_SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `key` stands for source, text and range: a change of case or of spaces around the text
    // alone asks the server nothing new.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, active, absent]);

  const current = answer?.key === key ? answer : null;
  return {
    active: active && !absent,
    matches: active && current ? current.matches : null,
    retained: active && current ? current.retained : null,
    waiting: active && !absent && current === null,
    error: active ? (current?.error ?? null) : null,
    absent,
  };
}

/** Retained events as held messages, oldest first; their seq keeps them apart from held rows. */
export function toMessages(events: readonly RetainedEvent[]): StreamMessage[] {
  return events
    .map((e): StreamMessage => ({
      stream: e.stream,
      seq: Number.MIN_SAFE_INTEGER + Number(e.id),
      id: e.id,
      data: e.event,
      activityType: readActivityType(e.event),
      receivedAt: e.receivedAt,
    }))
    .sort((a, b) => a.receivedAt! - b.receivedAt! || Number(a.id) - Number(b.id));
}

/**
 * The server's matches and the held messages that match too (arrived since, or the same ones),
 * each once (by stream and id), in arrival order.
 */
export function unionByEvent(
  matches: readonly StreamMessage[],
  held: readonly StreamMessage[],
): StreamMessage[] {
  const heldById = new Map<string, StreamMessage>();
  for (const message of held)
    if (message.id !== null) heldById.set(`${message.stream}:${message.id}`, message);
  const out: StreamMessage[] = [];
  const seen = new Set<string>();
  for (const match of matches) {
    const id = `${match.stream}:${match.id}`;
    seen.add(id);
    out.push(heldById.get(id) ?? match);
  }
  for (const message of held) {
    if (message.id !== null && seen.has(`${message.stream}:${message.id}`)) continue;
    out.push(message);
  }
  return out.sort((a, b) => (a.receivedAt ?? -Infinity) - (b.receivedAt ?? -Infinity));
}

/** Held messages received within the range (the range is the server's time of receipt). */
export function withinRange(
  messages: readonly StreamMessage[],
  range: TimeRange,
): readonly StreamMessage[] {
  if (range.since === null && range.until === null) return messages;
  return messages.filter((m) => {
    const at = m.receivedAt;
    if (at === null) return false;
    return (
      (range.since === null || at >= range.since) && (range.until === null || at <= range.until)
    );
  });
}

/**
 * "N of M"'s M during a server search: what the server kept when asked, plus the held messages
 * that arrived after (newer than each stream's newest id then).
 */
export function countRetained(
  retained: NonNullable<ServerSearch["retained"]>,
  held: readonly StreamMessage[],
): number {
  let count = retained.count;
  for (const message of held) {
    if (message.id === null) continue;
    const newest = retained.newestIds[message.stream];
    if (newest === undefined || Number(message.id) > newest) count++;
  }
  return count;
}
