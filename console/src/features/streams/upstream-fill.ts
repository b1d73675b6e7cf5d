// Proxy mode in front of a real cattle_grid: its streams carry no event ids, so neither a reload
// nor a reconnect can ask for what was missed by Last-Event-ID. What it keeps instead, its own
// history (its 10 newest events), fills the stream pages of a browser that never saw them, and
// after a reconnect gives back what it still holds of what was missed. Each event is shown once
// however often it arrives (live, from the history, or both).
import { getConnectionTracker } from "../../lib/streams/stream-connection.ts";
import {
  getStreamStore,
  markHistoryFilled,
  STREAM_TYPES,
  type StreamType,
} from "../../lib/streams/stream-store.ts";
import { eventKey, fetchUpstreamHistory } from "../../lib/streams/upstream-history.ts";

const REMEMBERED_KEYS = 2000;

export type UpstreamFill = {
  /** Whether a live message is one already shown (and remembers it as shown). */
  seenBefore: (type: StreamType, message: unknown) => boolean;
  /**
   * Fills the stream pages never filled (stream-store.ts `neverConnected`, as on Corral's own
   * history) from the history, marked filled once storage holds what it gave.
   */
  fillNewBrowser: () => Promise<void>;
  /** After a reconnect that left the marker `markerKey`: adds what the history holds. */
  fillGap: (type: StreamType, markerKey: string) => Promise<void>;
};

/** Made once the stores hold what the browser kept, before any stream is opened. */
export function createUpstreamFill(): UpstreamFill {
  // Read before any stream opens (live events may come first).
  const unfilled = STREAM_TYPES.filter((type) => getStreamStore(type).getState().neverConnected);
  const seen = new Map<StreamType, Set<string>>();
  for (const type of STREAM_TYPES) {
    const keys = new Set<string>();
    for (const message of getStreamStore(type).getState().messages.slice(-REMEMBERED_KEYS)) {
      keys.add(eventKey(type, message.data));
    }
    seen.set(type, keys);
  }
  const remember = (type: StreamType, key: string) => {
    const keys = seen.get(type)!;
    keys.add(key);
    if (keys.size > REMEMBERED_KEYS) keys.delete(keys.values().next().value!);
  };

  return {
    seenBefore(type, message) {
      const key = eventKey(type, message);
      if (seen.get(type)!.has(key)) return true;
      remember(type, key);
      return false;
    },
    async fillNewBrowser() {
      if (unfilled.length === 0) return;
      const events = await fetchUpstreamHistory();
      if (events === null) return;
      for (const { stream, event, key } of events) {
        if (!unfilled.includes(stream) || seen.get(stream)!.has(key)) continue;
        remember(stream, key);
        getStreamStore(stream).getState().add(event, null);
      }
      // Marked only once stored: a reload before then fills again (each event once).
      await Promise.all(unfilled.map((type) => getStreamStore(type).whenIdle()));
      for (const type of unfilled) markHistoryFilled(type);
    },
    async fillGap(type, markerKey) {
      const before = new Set(seen.get(type));
      const events = await fetchUpstreamHistory();
      if (events === null) return;
      let added = 0;
      let reachesBack = false;
      for (const { stream, event, key } of events) {
        if (stream !== type) continue;
        if (before.has(key)) reachesBack = true;
        if (seen.get(type)!.has(key)) continue;
        remember(type, key);
        getStreamStore(type).getState().add(event, null);
        added++;
      }
      // Complete only when the history reaches back to a message shown before the gap.
      getConnectionTracker(type).settleGap(markerKey, added, reachesBack);
    },
  };
}
