// An event's history_id: a UUIDv7, like cattle_grid's, built from what the event already is, so
// that every route names an event alike (the combined stream, GET /fe/account/history and the
// history of docs/server-guide.md#history) without storing anything more. The 48-bit time is when it
// was stored (ms), the 12 bits after the version are its stream, the last 62 bits its seq. So ids
// sort as events are ordered in merged history: by time, then stream, then seq.

import type { StreamName } from "./streams.ts";

// Ranked as their names sort, so SQL can order by the stream column (db/events.store.ts).
const codes: Record<StreamName, number> = { error: 1, incoming: 2, outgoing: 3 };
const names = ["", "error", "incoming", "outgoing"] as const;

export function historyId(createdAt: number, stream: StreamName, seq: number): string {
  const hex =
    BigInt(createdAt).toString(16).padStart(12, "0").slice(-12) +
    "7" +
    codes[stream].toString(16).padStart(3, "0") +
    ((2n << 62n) | BigInt(seq)).toString(16).padStart(16, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A position in merged history: time, the stream's name (as it sorts), seq. */
export interface HistoryPosition {
  ms: number;
  stream: string;
  seq: number;
}

/**
 * The position a UUID names, as Python's UUID() reads one (hyphens anywhere, braces, `urn:uuid:`),
 * or null when it is not one. A UUID we did not make counts as its time alone.
 */
export function parseHistoryId(text: string): HistoryPosition | null {
  const hex = text
    .trim()
    .replace(/^urn:uuid:/i, "")
    .replace(/^\{(.*)\}$/, "$1")
    .replace(/-/g, "");
  if (!/^[0-9a-f]{32}$/i.test(hex)) return null;
  const ms = Number.parseInt(hex.slice(0, 12), 16);
  const code = Number.parseInt(hex.slice(13, 16), 16);
  const ours = hex[12] === "7" && code >= 1 && code <= 3 && /^[89ab]/i.test(hex.slice(16));
  if (!ours) return { ms, stream: "", seq: 0 };
  const seq = Number(BigInt(`0x${hex.slice(16)}`) & ((1n << 62n) - 1n));
  return { ms, stream: names[code]!, seq };
}

/** The stream and seq of one of our ids, or null. */
export function eventOfHistoryId(text: string): { stream: StreamName; seq: number } | null {
  const position = parseHistoryId(text);
  if (!position || position.stream === "") return null;
  return { stream: position.stream as StreamName, seq: position.seq };
}
