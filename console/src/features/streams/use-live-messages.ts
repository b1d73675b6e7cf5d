import { useMemo } from "react";
import { useStore } from "zustand";
import { getConnectionStore, type StreamMarker } from "../../lib/streams/stream-connection.ts";
import {
  getStreamStore,
  type StreamMessage,
  type StreamType,
} from "../../lib/streams/stream-store.ts";

export type StreamSource = StreamType | "all";

export type LiveMessages = {
  messages: readonly StreamMessage[];
  activityTypes: readonly string[];
  storageNote: string | null;
  markers: readonly StreamMarkerOf[];
};

export type StreamMarkerOf = { stream: StreamType; marker: StreamMarker };

const EMPTY: readonly never[] = [];

// Hooks are called for all three streams every time, so "all" and one stream share one shape.
function useStreamParts(type: StreamType, wanted: boolean) {
  const store = getStreamStore(type);
  const messages = useStore(store, (s) => (wanted ? s.messages : EMPTY));
  const activityTypes = useStore(store, (s) => (wanted ? s.activityTypes : EMPTY));
  const storageNote = useStore(store, (s) => (wanted ? s.storageNote : null));
  const markers = useStore(getConnectionStore(type), (s) => (wanted ? s.markers : EMPTY));
  const markersOf = useMemo(
    () => markers.map((marker) => ({ stream: type, marker })),
    [type, markers],
  );
  return { messages, activityTypes, storageNote, markers: markersOf };
}

/** The messages held for one stream, or for all three merged in arrival order. */
export function useLiveMessages(source: StreamSource): LiveMessages {
  const incoming = useStreamParts("incoming", source === "all" || source === "incoming");
  const outgoing = useStreamParts("outgoing", source === "all" || source === "outgoing");
  const error = useStreamParts("error", source === "all" || source === "error");
  const messages = useMemo(
    () => mergeByArrival([incoming.messages, outgoing.messages, error.messages]),
    [incoming.messages, outgoing.messages, error.messages],
  );
  const activityTypes = useMemo(
    () =>
      source === "all"
        ? [
            ...new Set([
              ...incoming.activityTypes,
              ...outgoing.activityTypes,
              ...error.activityTypes,
            ]),
          ].sort()
        : source === "incoming"
          ? incoming.activityTypes
          : source === "outgoing"
            ? outgoing.activityTypes
            : error.activityTypes,
    [source, incoming.activityTypes, outgoing.activityTypes, error.activityTypes],
  );
  const markers = useMemo(
    () =>
      [...incoming.markers, ...outgoing.markers, ...error.markers].sort(
        (a, b) => a.marker.at - b.marker.at,
      ),
    [incoming.markers, outgoing.markers, error.markers],
  );
  const storageNote = incoming.storageNote ?? outgoing.storageNote ?? error.storageNote;
  return { messages, activityTypes, storageNote, markers };
}

/**
 * Merges lists that are each in arrival order. A single non-empty list is returned as it is (no
 * copy), so a one-stream page keeps the store's array identity.
 */
export function mergeByArrival(lists: ReadonlyArray<readonly StreamMessage[]>) {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? EMPTY;
  const merged: StreamMessage[] = [];
  const positions = nonEmpty.map(() => 0);
  const total = nonEmpty.reduce((sum, list) => sum + list.length, 0);
  while (merged.length < total) {
    let best = -1;
    let bestAt = Infinity;
    for (let i = 0; i < nonEmpty.length; i++) {
      const candidate = nonEmpty[i]![positions[i]!];
      if (!candidate) continue;
      // Rows stored before arrival times were kept sort first, as the oldest.
      const at = candidate.receivedAt ?? -Infinity;
      if (best === -1 || at < bestAt) {
        best = i;
        bestAt = at;
      }
    }
    merged.push(nonEmpty[best]![positions[best]!++]!);
  }
  return merged;
}
