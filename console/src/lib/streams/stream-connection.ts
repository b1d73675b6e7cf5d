// What each stream's connection is doing, for the stream page's status region, and the markers a
// reconnect leaves in the list: "Reconnected: N missed messages replayed" when the stream has ids
// (the server resent what we missed) or when the upstream's history covered the whole gap, or
// "Reconnected: messages sent while disconnected may be missing" when it has none and its history
// cannot say (a real cattle_grid sends no ids and keeps its 10 newest). Held in memory only.
import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { RetryCause } from "./event-stream.ts";
import type { StreamType } from "./stream-store.ts";

export type ConnectionStatus =
  | { kind: "idle" }
  | { kind: "connecting" }
  | { kind: "connected" }
  | { kind: "reconnecting"; retryAt: number; cause: RetryCause }
  | { kind: "disconnected"; reason: string };

/**
 * `at`: when the stream reconnected; the marker sits before the messages received from then.
 * A gap's `replayed`: messages the upstream's history gave back (it may not reach far enough).
 */
export type StreamMarker =
  | { kind: "replayed"; key: string; at: number; count: number }
  | { kind: "gap"; key: string; at: number; from: number; to: number; replayed: number };

export type ConnectionState = { status: ConnectionStatus; markers: readonly StreamMarker[] };

// Corral replays what was missed in its first frames after the reconnect; anything arriving this
// long after the previous replayed message is live again.
export const REPLAY_QUIET_MS = 500;

export type ConnectionTracker = {
  onConnecting: () => void;
  /** Returns the key of the marker a reconnect leaves, null for the first connection. */
  onOpen: (knowsIds: boolean) => string | null;
  /**
   * The upstream's history filled a gap: `count` messages came back, and `complete` says whether
   * it reached back to a message held before the gap (then nothing is missing).
   */
  settleGap: (key: string, count: number, complete: boolean) => void;
  /** Called for each message before it is added; counts it when it is part of a replay. */
  onMessage: () => void;
  onRetry: (delayMs: number, cause?: RetryCause) => void;
  onFatal: (reason: string) => void;
  onClosed: () => void;
  clearMarkers: () => void;
};

const stores = new Map<StreamType, StoreApi<ConnectionState>>();
const trackers = new Map<StreamType, ConnectionTracker>();
const reconnectActions = new Map<StreamType, () => void>();

/** What "Reconnect now" and "Reconnect" do for a stream; set while its connection is open. */
export function setReconnectAction(type: StreamType, action: (() => void) | null): void {
  if (action) reconnectActions.set(type, action);
  else reconnectActions.delete(type);
}

export function reconnectStream(type: StreamType): void {
  reconnectActions.get(type)?.();
}

export function getConnectionStore(type: StreamType): StoreApi<ConnectionState> {
  let store = stores.get(type);
  if (!store) {
    store = createStore<ConnectionState>()(() => ({ status: { kind: "idle" }, markers: [] }));
    stores.set(type, store);
  }
  return store;
}

export function useConnection<T>(type: StreamType, selector: (state: ConnectionState) => T): T {
  return useStore(getConnectionStore(type), selector);
}

/** The one tracker of a stream's connection; `now` is replaceable for tests. */
export function getConnectionTracker(type: StreamType, now = () => Date.now()): ConnectionTracker {
  let tracker = trackers.get(type);
  if (!tracker) trackers.set(type, (tracker = createTracker(getConnectionStore(type), now)));
  return tracker;
}

export function createTracker(
  store: StoreApi<ConnectionState>,
  now: () => number,
): ConnectionTracker {
  let opened = false;
  let lostAt: number | null = null;
  let replay: { key: string; lastAt: number } | null = null;
  let markerCount = 0;
  const setStatus = (status: ConnectionStatus) => store.setState({ status });
  const addMarker = (marker: StreamMarker) =>
    store.setState((state) => ({ markers: [...state.markers, marker] }));

  return {
    onConnecting: () => setStatus({ kind: "connecting" }),
    onOpen(knowsIds) {
      const at = now();
      let key: string | null = null;
      if (opened) {
        key = `marker-${markerCount++}`;
        if (knowsIds) {
          addMarker({ kind: "replayed", key, at, count: 0 });
          replay = { key, lastAt: at };
        } else {
          addMarker({ kind: "gap", key, at, from: lostAt ?? at, to: at, replayed: 0 });
        }
      }
      opened = true;
      lostAt = null;
      setStatus({ kind: "connected" });
      return key;
    },
    settleGap(key, count, complete) {
      store.setState((state) => ({
        markers: state.markers.map((marker) => {
          if (marker.key !== key || marker.kind !== "gap") return marker;
          return complete
            ? { kind: "replayed", key, at: marker.at, count }
            : { ...marker, replayed: count };
        }),
      }));
    },
    onMessage() {
      if (!replay) return;
      const at = now();
      if (at - replay.lastAt > REPLAY_QUIET_MS) {
        replay = null;
        return;
      }
      replay.lastAt = at;
      const { key } = replay;
      store.setState((state) => ({
        markers: state.markers.map((marker) =>
          marker.key === key && marker.kind === "replayed"
            ? { ...marker, count: marker.count + 1 }
            : marker,
        ),
      }));
    },
    onRetry(delayMs, cause = "ended") {
      replay = null;
      lostAt ??= now();
      setStatus({ kind: "reconnecting", retryAt: now() + delayMs, cause });
    },
    onFatal: (reason) => setStatus({ kind: "disconnected", reason }),
    onClosed() {
      opened = false;
      replay = null;
      lostAt = null;
      setStatus({ kind: "idle" });
    },
    clearMarkers: () => store.setState({ markers: [] }),
  };
}
