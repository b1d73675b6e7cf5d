import { useEffect } from "react";
import { getFeBaseUrl } from "../../lib/fe-client.ts";
import { openEventStream, type EventStreamHandle } from "../../lib/event-stream.ts";
import {
  getStreamStore,
  STREAM_TYPES,
  type StreamStore,
  type StreamType,
} from "../../lib/stream-store.ts";
import { whenBackendKnown, type Backend } from "../../lib/server-capabilities.ts";
import { getConnectionTracker, setReconnectAction } from "../../lib/stream-connection.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { streamOf } from "../../lib/upstream-history.ts";
import { createUpstreamFill, type UpstreamFill } from "./upstream-fill.ts";

export function buildStreamUrl(type: StreamType | "combined"): string {
  return `${getFeBaseUrl()}/account/stream/${type}`;
}

/** Resolves once the store has read what IndexedDB held, so its last event id is known. */
function waitForHydration(store: StreamStore): Promise<void> {
  if (store.getState().hydrated) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = store.subscribe((state) => {
      if (!state.hydrated) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Mounted once in the layout: while a token is set, all three account streams are connected so
 * the drawer badges count in the background; a logout (or a new token) closes them.
 */
export function useStreamConnections(): void {
  const token = useUserStore((state) => state.token);
  useEffect(() => {
    if (!token) return;
    let stopped = false;
    // Loaded apart from the first screen (first-load budget); the stream pages load it anyway.
    const history = import("./server-history.ts");
    void history.then((h) => h.forgetStreamReach());
    const handles: EventStreamHandle[] = [];
    for (const type of STREAM_TYPES) getConnectionTracker(type).onConnecting();
    void Promise.all(STREAM_TYPES.map((type) => waitForHydration(getStreamStore(type)))).then(
      () => {
        if (stopped) return;
        const fill = createUpstreamFill();
        // In front of a server other than Corral (a real cattle_grid), its history fills a new
        // browser's pages and what a reconnect missed; Corral's streams resume by their ids.
        void whenBackendKnown().then((backend) => {
          if (stopped) return;
          const upstream = backend !== null && backend.name !== "corral";
          const combined = upstream && offersCombined(backend) && sameStart(COMBINED_TYPES);
          const singles = combined ? ["error" as const] : STREAM_TYPES;
          for (const type of singles) handles.push(connect(type, token, fill, upstream));
          if (combined) handles.push(connectCombined(token, fill));
          if (upstream) return void fill.fillNewBrowser();
          // Corral keeps each stream's events: a stream this browser never saw shows its newest.
          void history.then((h) => {
            if (!stopped) for (const type of STREAM_TYPES) void h.fillNeverConnected(type);
          });
        });
      },
    );
    return () => {
      stopped = true;
      for (const handle of handles) handle.close();
      for (const type of STREAM_TYPES) {
        setReconnectAction(type, null);
        getConnectionTracker(type).onClosed();
      }
    };
  }, [token]);
}

function connect(
  type: StreamType,
  token: string,
  fill: UpstreamFill,
  upstream: boolean,
): EventStreamHandle {
  const store = getStreamStore(type);
  const tracker = getConnectionTracker(type);
  let sawId = false;
  const handle = openEventStream({
    url: buildStreamUrl(type),
    token,
    // Resuming after the last stored id keeps a reload from replaying what we hold.
    lastEventId: store.getState().lastEventId,
    onMessage: (message, id) => {
      sawId ||= id !== null;
      // Without ids, an event the history already gave back is not shown twice.
      if (id === null && fill.seenBefore(type, message)) return;
      tracker.onMessage();
      store.getState().add(message, id);
    },
    onPosition: (id) => {
      sawId = true;
      store.getState().markPosition(id);
    },
    onOpen: () => {
      const knowsIds = sawId || store.getState().lastEventId !== null;
      const marker = tracker.onOpen(knowsIds);
      if (marker === null || knowsIds || !upstream) return;
      void fill.fillGap(type, marker);
    },
    onRetry: (delayMs, cause) => tracker.onRetry(delayMs, cause),
    onFatal: (reason, status) => {
      tracker.onFatal(reason);
      // The token is dead (signed out elsewhere, revoked, expired): as on the info call.
      if (status === 401) useUserStore.getState().setToken(null);
    },
  });
  setReconnectAction(type, () => {
    tracker.onConnecting();
    handle.reconnect();
  });
  return handle;
}

// The `combined` stream (incoming and outgoing in one, each event with its `history_id` and its
// `event_type`) where the upstream has it: cattle_grid's events carry no SSE ids, and their
// history ids let the history fill recognise each event exactly. Corral's own server keeps its
// three streams, which resume by their ids (server.md section 3).
const COMBINED_TYPES = ["incoming", "outgoing"] as const;
type CombinedType = (typeof COMBINED_TYPES)[number];

/** Servers known to have the `combined` stream (spec/cattle-grid-real.md). */
function offersCombined(backend: Backend): boolean {
  return backend.name === "cattle_grid";
}

/**
 * Whether one Last-Event-ID can resume both streams: both stores know where they stand, or
 * neither does (a combined id names a position in each; one of them unknown cannot be said).
 */
function sameStart(types: readonly StreamType[]): boolean {
  const known = types.map((type) => getStreamStore(type).getState().lastEventId !== null);
  return known.every((k) => k === known[0]);
}

/** A combined SSE id, `<incoming id>.<outgoing id>`, as the two streams' own ids. */
export function splitCombinedId(id: string | null): Record<CombinedType, string> | null {
  const match = /^(\d+)\.(\d+)$/.exec(id ?? "");
  return match ? { incoming: match[1]!, outgoing: match[2]! } : null;
}

function connectCombined(token: string, fill: UpstreamFill): EventStreamHandle {
  const trackers = COMBINED_TYPES.map((type) => getConnectionTracker(type));
  const stores = { incoming: getStreamStore("incoming"), outgoing: getStreamStore("outgoing") };
  const last = COMBINED_TYPES.map((type) => stores[type].getState().lastEventId);
  let sawId = false;
  const handle = openEventStream({
    url: buildStreamUrl("combined"),
    token,
    lastEventId: last.every((id) => id !== null) ? last.join(".") : null,
    onMessage: (message, id) => {
      const type = streamOf(message);
      // Error events have a stream of their own; anything else has no page to go to.
      if (type !== "incoming" && type !== "outgoing") return;
      const own = splitCombinedId(id)?.[type] ?? null;
      sawId ||= own !== null;
      if (own === null && fill.seenBefore(type, message)) return;
      getConnectionTracker(type).onMessage();
      stores[type].getState().add(message, own);
    },
    onPosition: (id) => {
      const position = splitCombinedId(id);
      if (!position) return;
      sawId = true;
      for (const type of COMBINED_TYPES) stores[type].getState().markPosition(position[type]);
    },
    onOpen: () => {
      const knowsIds = sawId || stores.incoming.getState().lastEventId !== null;
      COMBINED_TYPES.forEach((type, index) => {
        const marker = trackers[index]!.onOpen(knowsIds);
        if (marker !== null && !knowsIds) void fill.fillGap(type, marker);
      });
    },
    onRetry: (delayMs, cause) => trackers.forEach((tracker) => tracker.onRetry(delayMs, cause)),
    onFatal: (reason, status) => {
      trackers.forEach((tracker) => tracker.onFatal(reason));
      if (status === 401) useUserStore.getState().setToken(null);
    },
  });
  for (const type of COMBINED_TYPES) {
    setReconnectAction(type, () => {
      trackers.forEach((tracker) => tracker.onConnecting());
      handle.reconnect();
    });
  }
  return handle;
}
