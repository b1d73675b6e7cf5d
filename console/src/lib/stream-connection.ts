// What each stream's connection is doing, for the stream page's status region, and the markers a
// reconnect leaves in the list: "Reconnected: N missed messages replayed" when the stream has ids
// (the server resent what we missed), or "Gap: …" when it has none (a real cattle_grid sends no
// ids, so nothing can be asked for again). Held in memory only: a reload starts a new connection.
import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { StreamType } from "./stream-store.ts";

export type ConnectionStatus =
  | { kind: "idle" }
  | { kind: "connecting" }
  | { kind: "connected" }
  | { kind: "reconnecting"; retryAt: number }
  | { kind: "disconnected"; reason: string };

/** `at`: when the stream reconnected; the marker sits before the messages received from then. */
export type StreamMarker =
  | { kind: "replayed"; key: string; at: number; count: number }
  | { kind: "gap"; key: string; at: number; from: number; to: number };

export type ConnectionState = { status: ConnectionStatus; markers: readonly StreamMarker[] };

// Corral replays what was missed in its first frames after the reconnect; anything arriving this
// long after the previous replayed message is live again.
export const REPLAY_QUIET_MS = 500;

export type ConnectionTracker = {
  onConnecting: () => void;
  onOpen: (knowsIds: boolean) => void;
  /** Called for each message before it is added; counts it when it is part of a replay. */
  onMessage: () => void;
  onRetry: (delayMs: number) => void;
  onFatal: (reason: string) => void;
  onClosed: () => void;
  clearMarkers: () => void;
};

const stores = new Map<StreamType, StoreApi<ConnectionState>>();
const trackers = new Map<StreamType, ConnectionTracker>();

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
      if (opened) {
        const key = `marker-${markerCount++}`;
        if (knowsIds) {
          addMarker({ kind: "replayed", key, at, count: 0 });
          replay = { key, lastAt: at };
        } else {
          addMarker({ kind: "gap", key, at, from: lostAt ?? at, to: at });
        }
      }
      opened = true;
      lostAt = null;
      setStatus({ kind: "connected" });
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
    onRetry(delayMs) {
      replay = null;
      lostAt ??= now();
      setStatus({ kind: "reconnecting", retryAt: now() + delayMs });
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
