// What a stream page reaches of the server's retained events (docs/server-guide.md#history): a browser
// that never saw a stream is filled with the newest ones at once, "Load earlier" pages back to
// the start of what the server keeps, and each stream remembers (in memory) whether it got there.
// History rows go into the stream's store beside live rows, deduplicated by the server's event id.
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { fetchEventPage } from "../../lib/streams/event-history.ts";
import {
  getStreamStore,
  markHistoryFilled,
  type StreamType,
} from "../../lib/streams/stream-store.ts";

/** How many events a first fill and each "Load earlier" ask for. */
export const HISTORY_PAGE = 100;

export type StreamReach = {
  /** True once the server said nothing older remains; null while unknown. */
  reachedStart: boolean | null;
  loading: boolean;
  /** Why the last ask failed, in words. */
  error: string | null;
  /** The server keeps no history (a 404): the page says so instead of offering "Load earlier". */
  absent: boolean;
};

const INITIAL: StreamReach = { reachedStart: null, loading: false, error: null, absent: false };

type ReachState = Record<StreamType, StreamReach>;

const reachStore = createStore<ReachState>()(() => ({
  incoming: INITIAL,
  outgoing: INITIAL,
  error: INITIAL,
}));

function update(type: StreamType, change: Partial<StreamReach>): void {
  reachStore.setState((state) => ({ [type]: { ...state[type], ...change } }));
}

export function useStreamReach(type: StreamType): StreamReach {
  return useStore(reachStore, (state) => state[type]);
}

export function getStreamReach(type: StreamType): StreamReach {
  return reachStore.getState()[type];
}

/** Forgets what was learnt of one stream (its reset), or of all (a sign-in, tests). */
export function forgetStreamReach(type?: StreamType): void {
  if (type) update(type, INITIAL);
  else reachStore.setState({ incoming: INITIAL, outgoing: INITIAL, error: INITIAL });
}

const inflight = new Map<StreamType, Promise<void>>();

/**
 * One page of events older than the oldest held (or the newest ones when nothing is held), put
 * before the held messages. Concurrent asks for one stream share one request.
 */
export function loadEarlier(type: StreamType): Promise<void> {
  let running = inflight.get(type);
  if (!running) {
    running = askEarlier(type).finally(() => inflight.delete(type));
    inflight.set(type, running);
  }
  return running;
}

async function askEarlier(type: StreamType): Promise<void> {
  const store = getStreamStore(type);
  update(type, { loading: true, error: null });
  try {
    // The oldest id held is known only once storage was read.
    await store.whenIdle();
    const oldest = store.getState().messages.find((m) => m.id !== null)?.id ?? undefined;
    const page = await fetchEventPage(type, { before: oldest, limit: HISTORY_PAGE });
    if (!page.ok) {
      update(type, {
        loading: false,
        absent: page.absent,
        error: page.absent ? null : page.reason,
      });
      return;
    }
    await store
      .getState()
      .addOlder(page.events.map((e) => ({ id: e.id, data: e.event, receivedAt: e.receivedAt })));
    update(type, { loading: false, reachedStart: !page.more });
  } catch (error) {
    update(type, {
      loading: false,
      error: `Could not load earlier messages: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

/**
 * The newest retained events for a stream this browser never saw (its store says so). Marked
 * filled once they are stored: a reload before then fills again (each event once, by its id).
 */
export async function fillNeverConnected(type: StreamType): Promise<void> {
  const store = getStreamStore(type);
  if (!store.getState().neverConnected) return;
  // Once: a later sign-in on this page is no new browser.
  store.setState({ neverConnected: false });
  await loadEarlier(type);
  const reach = getStreamReach(type);
  if (reach.error === null && !reach.absent) markHistoryFilled(type);
}

/**
 * Whether anything older than the oldest held message remains, asked once per stream (one event),
 * so the list can say "Everything the server keeps" after a reload.
 */
export async function learnReach(type: StreamType): Promise<void> {
  const reach = getStreamReach(type);
  if (reach.reachedStart !== null || reach.loading || reach.absent || inflight.has(type)) return;
  const store = getStreamStore(type);
  await store.whenIdle();
  const oldest = store.getState().messages.find((m) => m.id !== null)?.id ?? undefined;
  const page = await fetchEventPage(type, { before: oldest, limit: 1 }).catch(() => null);
  if (page === null) return;
  if (!page.ok) {
    if (page.absent) update(type, { absent: true });
    return;
  }
  if (getStreamReach(type).reachedStart === null)
    update(type, { reachedStart: page.events.length === 0 });
}
