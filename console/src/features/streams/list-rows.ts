import type { StreamMessage } from "../../lib/stream-store.ts";
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
