// cattle_grid's own history (`GET /fe/account/history` → `{events: [...]}`, its 10 newest, newest
// first; docs/console-guide.md#in-front-of-cattle_grid): what a stream without event ids can get back of
// what it missed. Events carry `event_type` (which stream) and `history_id`: a uuid on the
// `combined` stream, but null in the history and on the other streams (seen on 0.5.22), so it
// cannot match one copy of an event with another. An event is recognised by its activity's id, else
// by its whole content less its history_id: the same event, from the history or live, is shown
// once.
import { callFe } from "../fe-client.ts";
import { rememberAbsent, routeOffered } from "../server-capabilities.ts";
import { isStreamType, type StreamType } from "./stream-store.ts";

const HISTORY = "/account/history";

export type HistoryEvent = { stream: StreamType; event: unknown; key: string };

/** The stream an event belongs to, from its `event_type`; null for anything else. */
export function streamOf(event: unknown): StreamType | null {
  const type = (event as { event_type?: unknown } | null)?.event_type;
  return isStreamType(type) ? type : null;
}

/** What makes two copies of one event the same: see the comment at the top. */
export function eventKey(stream: StreamType, event: unknown): string {
  const record = (event ?? {}) as { history_id?: unknown; data?: { raw?: unknown } };
  const raw = record.data?.raw as { id?: unknown } | undefined;
  if (typeof raw?.id === "string") return `${stream}:${raw.id}`;
  if (typeof event !== "object" || event === null) return `${stream}:${stableJson(event)}`;
  const { history_id: _historyId, ...rest } = event as Record<string, unknown>;
  return `${stream}:${stableJson(rest)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

let inflight: Promise<HistoryEvent[] | null> | null = null;

/**
 * The upstream's history, oldest first, or null when it has none (a 404 is remembered for the
 * sign-in) or did not answer. Streams reconnecting together share one request.
 */
export function fetchUpstreamHistory(): Promise<HistoryEvent[] | null> {
  inflight ??= askHistory().finally(() => (inflight = null));
  return inflight;
}

async function askHistory(): Promise<HistoryEvent[] | null> {
  if ((await routeOffered(HISTORY)) === "no") return null;
  const result = await callFe<{ events?: unknown }>(HISTORY);
  if (result.status === 404) rememberAbsent(HISTORY);
  if (!result.ok || !Array.isArray(result.data?.events)) return null;
  const events: HistoryEvent[] = [];
  for (const event of result.data.events) {
    const stream = streamOf(event);
    if (stream) events.push({ stream, event, key: eventKey(stream, event) });
  }
  return events.reverse();
}
