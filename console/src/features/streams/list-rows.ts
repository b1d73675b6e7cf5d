import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import type { StreamMarkerOf } from "./use-live-messages.ts";

export type ListRow =
  | { kind: "message"; key: string; message: StreamMessage }
  | ({ kind: "marker"; key: string } & StreamMarkerOf);

/**
 * The listed messages with the reconnect markers placed by time: a marker goes before the first
 * message received at or after its reconnect. Newest first reverses the whole list.
 */
export function buildRows(
  messages: readonly StreamMessage[],
  markers: readonly StreamMarkerOf[],
  newestFirst: boolean,
): ListRow[] {
  const rows: ListRow[] = [];
  let next = 0;
  for (const message of messages) {
    const at = message.receivedAt ?? -Infinity;
    for (; next < markers.length && markers[next]!.marker.at <= at; next++)
      rows.push(markerRow(markers[next]!));
    rows.push({ kind: "message", key: `${message.stream}:${message.seq}`, message });
  }
  for (; next < markers.length; next++) rows.push(markerRow(markers[next]!));
  return newestFirst ? rows.reverse() : rows;
}

function markerRow(of: StreamMarkerOf): ListRow {
  return { kind: "marker", key: `${of.stream}:${of.marker.key}`, ...of };
}

/** The key of the newest message listed (first when newest come first), or null. */
export function newestMessageKey(rows: readonly ListRow[], newestFirst: boolean): string | null {
  const newest = newestFirst
    ? rows.find((row) => row.kind === "message")
    : rows.findLast((row) => row.kind === "message");
  return newest?.key ?? null;
}

/**
 * How many messages are listed on the newest side of the one with this key ("Jump to newest
 * (N)"). A key no longer listed (reset, a new search) counts none.
 */
export function countArrivalsAfter(
  rows: readonly ListRow[],
  key: string | null,
  newestFirst: boolean,
): number {
  if (key === null) return rows.filter((row) => row.kind === "message").length;
  const index = rows.findIndex((row) => row.key === key);
  if (index < 0) return 0;
  const newer = newestFirst ? rows.slice(0, index) : rows.slice(index + 1);
  return newer.filter((row) => row.kind === "message").length;
}
