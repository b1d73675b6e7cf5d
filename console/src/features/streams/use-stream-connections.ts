import { useEffect } from "react";
import { getFeBaseUrl } from "../../lib/fe-client.ts";
import { openEventStream, type EventStreamHandle } from "../../lib/event-stream.ts";
import {
  getStreamStore,
  STREAM_TYPES,
  type StreamStore,
  type StreamType,
} from "../../lib/stream-store.ts";
import { getConnectionTracker, setReconnectAction } from "../../lib/stream-connection.ts";
import { useUserStore } from "../../lib/user-store.ts";

export function buildStreamUrl(type: StreamType): string {
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
    const handles: EventStreamHandle[] = [];
    for (const type of STREAM_TYPES) {
      const store = getStreamStore(type);
      const tracker = getConnectionTracker(type);
      tracker.onConnecting();
      void waitForHydration(store).then(() => {
        if (stopped) return;
        let sawId = false;
        const handle = openEventStream({
          url: buildStreamUrl(type),
          token,
          // Resuming after the last stored id keeps a reload from replaying what we hold.
          lastEventId: store.getState().lastEventId,
          onMessage: (message, id) => {
            sawId ||= id !== null;
            tracker.onMessage();
            store.getState().add(message, id);
          },
          onPosition: (id) => {
            sawId = true;
            store.getState().markPosition(id);
          },
          onOpen: () => tracker.onOpen(sawId || store.getState().lastEventId !== null),
          onRetry: (delayMs, cause) => tracker.onRetry(delayMs, cause),
          onFatal: (reason, status) => {
            tracker.onFatal(reason);
            // The token is dead (signed out elsewhere, revoked, expired): as on the info call.
            if (status === 401) useUserStore.getState().setToken(null);
          },
        });
        handles.push(handle);
        setReconnectAction(type, () => {
          tracker.onConnecting();
          handle.reconnect();
        });
      });
    }
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
