// Streams in front of a server other than Corral (a real cattle_grid, proxy mode), loaded only
// there: its streams carry no ids, so its history (upstream-fill.ts) fills a new browser's pages
// and what a reconnect missed; and where it has the `combined` stream (incoming and outgoing in
// one, each event with its `event_type` and a `history_id`), Incoming and Outgoing read that one
// connection. Corral's own server keeps its three streams, which resume by their ids
// (docs/server-guide.md#streams).
import { openEventStream, type EventStreamHandle } from "../../lib/streams/event-stream.ts";
import { getFeBaseUrl } from "../../lib/fe-client.ts";
import type { Backend } from "../../lib/server-capabilities.ts";
import { getConnectionTracker, setReconnectAction } from "../../lib/streams/stream-connection.ts";
import { getStreamStore, STREAM_TYPES, type StreamType } from "../../lib/streams/stream-store.ts";
import { streamOf } from "../../lib/streams/upstream-history.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { createUpstreamFill, type UpstreamFill } from "./upstream-fill.ts";

/**
 * Opens the account's streams in front of `backend`: `connectSingle` for each stream of its own,
 * combined for Incoming and Outgoing where the backend has it; then fills a new browser's pages.
 */
export function openUpstreamStreams(
  backend: Backend,
  token: string,
  connectSingle: (type: StreamType, fill: UpstreamFill) => EventStreamHandle,
): EventStreamHandle[] {
  // Made before any stream opens: a new browser is one that held nothing until then.
  const fill = createUpstreamFill();
  const combined = offersCombined(backend) && sameStart(COMBINED_TYPES);
  const singles = combined ? (["error"] as const) : STREAM_TYPES;
  const handles = singles.map((type) => connectSingle(type, fill));
  if (combined) handles.push(connectCombined(token, fill));
  void fill.fillNewBrowser();
  return handles;
}

const COMBINED_TYPES = ["incoming", "outgoing"] as const;
type CombinedType = (typeof COMBINED_TYPES)[number];

/** Servers known to have the `combined` stream (docs/console-guide.md#in-front-of-cattle_grid). */
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
    url: `${getFeBaseUrl()}/account/stream/combined`,
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
