// Corral's retained event log (`GET /fe/account/events/{stream}`, docs/server-guide.md#history): newest
// first, paged by per-stream ids (`before`), filtered on the server by text (`q`) and time
// (`since`/`until`), or one event by `id`. What a stream page reaches of what arrived before this
// browser connected. A server without the route (cattle_grid in proxy mode) is asked once.
import { callFe } from "../fe-client.ts";
import { describeFeError } from "../fe-error-detail.ts";
import { rememberAbsent, routeOffered } from "../server-capabilities.ts";
import type { StreamType } from "./stream-message.ts";

const EVENTS = "/account/events";
/** The server's largest page. */
export const MAX_PAGE = 500;

export type RetainedEvent = {
  stream: StreamType;
  /** The event's id on its stream, as its `id:` line on the stream carried it. */
  id: string;
  receivedAt: number;
  event: unknown;
};

export type EventQuery = {
  before?: string;
  /** `"0"`: from the oldest retained (the page is still newest first). */
  after?: string;
  /** Case-insensitive, anywhere in the event's JSON. */
  text?: string;
  since?: number;
  until?: number;
  limit?: number;
  id?: string;
};

export type EventPage =
  | { ok: true; events: RetainedEvent[]; more: boolean }
  /** `absent`: the server has no such route (a 404); `reason` says why in words. */
  | { ok: false; absent: boolean; reason: string };

/** Whether to ask the server for retained events at all: false once it is known to lack them. */
export async function eventLogOffered(): Promise<boolean> {
  return (await routeOffered(EVENTS)) !== "no";
}

export function eventQueryString(query: EventQuery): string {
  const params = new URLSearchParams();
  if (query.before !== undefined) params.set("before", query.before);
  if (query.after !== undefined) params.set("after", query.after);
  if (query.text !== undefined && query.text.trim() !== "") params.set("q", query.text.trim());
  if (query.since !== undefined) params.set("since", new Date(query.since).toISOString());
  if (query.until !== undefined) params.set("until", new Date(query.until).toISOString());
  if (query.id !== undefined) params.set("id", query.id);
  params.set("limit", String(query.limit ?? 100));
  return params.toString();
}

/** One page of a stream's retained events, newest first. */
export async function fetchEventPage(
  stream: StreamType,
  query: EventQuery,
  signal?: AbortSignal,
): Promise<EventPage> {
  if (!(await eventLogOffered())) return { ok: false, absent: true, reason: absentReason };
  const result = await callFe<{ events?: unknown; more?: unknown }>(
    `${EVENTS}/${stream}?${eventQueryString(query)}`,
    { signal },
  );
  if (!result.ok) {
    if (result.status === 404) {
      rememberAbsent(EVENTS);
      return { ok: false, absent: true, reason: absentReason };
    }
    return { ok: false, absent: false, reason: describeFeError(result) };
  }
  const events = readEvents(stream, result.data?.events);
  if (events === null)
    return { ok: false, absent: false, reason: "The server's answer holds no list of events." };
  return { ok: true, events, more: result.data?.more === true };
}

const absentReason = "The server keeps no history of its streams beyond what it sends live.";

export function readEvents(stream: StreamType, value: unknown): RetainedEvent[] | null {
  if (!Array.isArray(value)) return null;
  const events: RetainedEvent[] = [];
  for (const entry of value as unknown[]) {
    const { id, receivedAt, event } = (entry ?? {}) as Record<string, unknown>;
    if (typeof id !== "number" && typeof id !== "string") continue;
    const at = typeof receivedAt === "string" ? Date.parse(receivedAt) : NaN;
    events.push({ stream, id: String(id), receivedAt: Number.isNaN(at) ? 0 : at, event });
  }
  return events;
}

/**
 * Every retained event matching the query, newest first, page after page (the server keeps at
 * most its retention per stream, so this ends). `onPage` sees the running total.
 */
export async function fetchAllMatches(
  stream: StreamType,
  query: Omit<EventQuery, "before" | "limit" | "id">,
  signal: AbortSignal,
  onPage?: (count: number) => void,
): Promise<EventPage> {
  const events: RetainedEvent[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await fetchEventPage(stream, { ...query, before, limit: MAX_PAGE }, signal);
    if (!page.ok) return page;
    events.push(...page.events);
    onPage?.(events.length);
    const oldest = page.events.at(-1);
    if (!page.more || !oldest) return { ok: true, events, more: false };
    before = oldest.id;
  }
}

/** One event by its id on the stream, or null when the server does not hold it. */
export async function fetchEventById(
  stream: StreamType,
  id: string,
  signal?: AbortSignal,
): Promise<{ ok: true; event: RetainedEvent | null } | { ok: false; reason: string }> {
  const page = await fetchEventPage(stream, { id, limit: 1 }, signal);
  if (!page.ok) return page;
  return { ok: true, event: page.events[0] ?? null };
}

export type Retention =
  | { ok: true; count: number; newestId: number | null }
  | { ok: false; absent: boolean; reason: string };

/**
 * How many events the server keeps for a stream, from two one-event pages: a stream's ids grow by
 * one per event and the oldest are dropped first (docs/server-guide.md#streams), so the newest id less
 * the oldest, plus one, counts them without reading them.
 */
export async function fetchRetention(stream: StreamType, signal?: AbortSignal): Promise<Retention> {
  const [newest, oldest] = await Promise.all([
    fetchEventPage(stream, { limit: 1 }, signal),
    fetchEventPage(stream, { after: "0", limit: 1 }, signal),
  ]);
  if (!newest.ok) return newest;
  if (!oldest.ok) return oldest;
  const last = newest.events[0];
  const first = oldest.events[0];
  if (!last || !first) return { ok: true, count: 0, newestId: null };
  return { ok: true, count: Number(last.id) - Number(first.id) + 1, newestId: Number(last.id) };
}
