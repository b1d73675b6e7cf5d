// Proxy mode in front of a real cattle_grid: its streams carry no event ids, so neither a reload
// nor a reconnect can ask for what was missed by Last-Event-ID. What it keeps instead, its own
// history (its 10 newest events), fills the stream pages of a browser that never saw them, and
// after a reconnect gives back what it still holds of what was missed. Each event is shown once
// however often it arrives (live, from the history, or both).
import { getConnectionTracker } from "../../lib/stream-connection.ts";
import { getStreamStore, STREAM_TYPES, type StreamType } from "../../lib/stream-store.ts";
import { eventKey, fetchUpstreamHistory } from "../../lib/upstream-history.ts";

/** Set once a browser's stream pages were filled from the history: a reset stays a reset. */
export const HISTORY_FILLED_KEY = "stream-history-filled";
const REMEMBERED_KEYS = 2000;

export type UpstreamFill = {
  /** Whether a live message is one already shown (and remembers it as shown). */
  seenBefore: (type: StreamType, message: unknown) => boolean;
  /** Fills empty stream pages from the history, once per browser. */
  fillNewBrowser: () => Promise<void>;
  /** After a reconnect that left the marker `markerKey`: adds what the history holds. */
  fillGap: (type: StreamType, markerKey: string) => Promise<void>;
};

/** Made once the stores hold what the browser kept, before any stream is opened. */
export function createUpstreamFill(): UpstreamFill {
  // A new browser is one that held nothing before its streams opened (live events may come first).
  const newBrowser = STREAM_TYPES.every(
    (type) => getStreamStore(type).getState().messages.length === 0,
  );
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
      if (!newBrowser || readFlag()) return;
      const events = await fetchUpstreamHistory();
      if (events === null) return;
      for (const { stream, event, key } of events) {
        if (seen.get(stream)!.has(key)) continue;
        remember(stream, key);
        getStreamStore(stream).getState().add(event, null);
      }
      writeFlag();
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

function readFlag(): boolean {
  try {
    return localStorage.getItem(HISTORY_FILLED_KEY) !== null;
  } catch {
    return false;
  }
}

function writeFlag(): void {
  try {
    localStorage.setItem(HISTORY_FILLED_KEY, "1");
  } catch {
    // Storage refused: the next new page fills again, and shows each event once all the same.
  }
}
