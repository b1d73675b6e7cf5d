import { useEffect } from "react";
import { getFeBaseUrl } from "../../lib/fe-client.ts";
import { openEventStream, type EventStreamHandle } from "../../lib/streams/event-stream.ts";
import {
  getStreamStore,
  STREAM_TYPES,
  type StreamStore,
  type StreamType,
} from "../../lib/streams/stream-store.ts";
import { whenServerKnown } from "../../lib/server-capabilities.ts";
import { getConnectionTracker, setReconnectAction } from "../../lib/streams/stream-connection.ts";
import { useUserStore } from "../../lib/user-store.ts";
import type { UpstreamFill } from "./upstream-fill.ts";

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
        void whenServerKnown().then(async ({ backend, recorded }) => {
          if (stopped) return;
          // A Corral proxy recording the upstream's events serves the three streams with ids.
          if (backend === null || backend.name === "corral" || recorded !== null) {
            for (const type of STREAM_TYPES) handles.push(connect(type, token, null));
            // Corral keeps each stream's events: a stream this browser never saw shows its newest.
            void history.then((h) => {
              if (!stopped) for (const type of STREAM_TYPES) void h.fillNeverConnected(type);
            });
            return;
          }
          // In front of another server (a real cattle_grid): its history fills a new browser's
          // pages and what a reconnect missed. Loaded only then (first-load budget).
          const { openUpstreamStreams } = await import("./upstream-streams.ts");
          if (stopped) return;
          handles.push(
            ...openUpstreamStreams(backend, token, (type, fill) => connect(type, token, fill)),
          );
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

/** One stream; `fill` (in front of a server whose streams carry no ids) fills what it missed. */
function connect(type: StreamType, token: string, fill: UpstreamFill | null): EventStreamHandle {
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
      if (id === null && fill?.seenBefore(type, message)) return;
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
      if (marker === null || knowsIds || fill === null) return;
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
