// Per stream type, the messages held in the browser: a zustand store for the page and badges,
// backed by IndexedDB rows (idb-stream-rows.ts) under the spec's "stream-storage-{type}" keys.
// Built for 10,000 messages at 200/s: adds are applied in batches on animation frames, the distinct
// activity types are counted incrementally, storage writes are batched.
import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import { openStreamRowsStore, type StoredRow, type StreamRowsStore } from "./idb-stream-rows.ts";
import { createStreamWriter } from "./idb-stream-writer.ts";
import { createApplyScheduler } from "./stream-apply-scheduler.ts";
import { createTypeCounter, readActivityType } from "./stream-activity-types.ts";
import { STREAM_TYPES, type StreamMessage, type StreamType } from "./stream-message.ts";
import { searchTextOf } from "./stream-search.ts";

// The message and stream types live in stream-message.ts (stream-search.ts needs them too, and
// this module needs stream-search.ts); they are exported from here as well, where callers look.
export { STREAM_TYPES, type StreamMessage, type StreamType } from "./stream-message.ts";

export const DEFAULT_STREAM_CAP = 10_000;
const PREVIEW_ROWS = 200;

export function isStreamType(value: unknown): value is StreamType {
  return (STREAM_TYPES as readonly unknown[]).includes(value);
}

export function streamStorageKey(type: StreamType): string {
  return `stream-storage-${type}`;
}

const historyFilledKey = (type: StreamType) => `stream-history-filled-${type}`;

/** Whether this browser's page of a stream was filled from the server's history (or reset). */
export function historyFilled(type: StreamType): boolean {
  try {
    return localStorage.getItem(historyFilledKey(type)) !== null;
  } catch {
    return false;
  }
}

/** Set once a fill's rows are stored, and by a reset: a reset stream stays empty on a reload. */
export function markHistoryFilled(type: StreamType): void {
  try {
    localStorage.setItem(historyFilledKey(type), "1");
  } catch {
    // Storage refused: the next load fills again, each event once all the same (by its id).
  }
}

export type StreamState = {
  /** Oldest first; at most `cap` long. */
  messages: readonly StreamMessage[];
  /** Distinct data.parsed.activity.type values among the messages, sorted. */
  activityTypes: readonly string[];
  hydrated: boolean;
  lastEventId: string | null;
  /** Set when storage failed us (full quota, no IndexedDB); shown on the stream page. */
  storageNote: string | null;
  /**
   * Hydrated holding nothing for this stream, which was never filled from the server's retained
   * events nor reset (historyFilled): its page is filled from them. A position alone does not
   * count: it is stored the moment the stream opens, before the fill's rows are.
   */
  neverConnected: boolean;
  add: (data: unknown, id?: string | null) => void;
  /**
   * Adds retained events from the server older than every message held (by the server's id),
   * before them; events already held, or newer than the oldest held, are left out. Resolves with
   * how many were added (the cap counts: none beyond it).
   */
  addOlder: (events: readonly OlderEvent[]) => Promise<number>;
  /** Records the server's position (an id without a message) as the place to resume from. */
  markPosition: (id: string) => void;
  reset: () => void;
};

export type OlderEvent = { id: string; data: unknown; receivedAt: number };

type Pending =
  | { kind: "message"; data: unknown; id: string | null; receivedAt: number }
  | { kind: "position"; id: string };

export type StreamStore = StoreApi<StreamState> & {
  /** Applies pending adds and resolves once storage has them (tests, the bench). */
  whenIdle: () => Promise<void>;
};

export type StreamStoreOptions = {
  type: StreamType;
  rows: Promise<StreamRowsStore | null>;
  cap?: number;
  flushMs?: number;
};

export function createStreamStore(options: StreamStoreOptions): StreamStore {
  const key = streamStorageKey(options.type);
  const cap = options.cap ?? DEFAULT_STREAM_CAP;
  const seenIds = new Set<string>();
  const types = createTypeCounter();
  let pending: Pending[] = [];
  let nextSeq = 0;
  let hydrated = false;
  let droppedForQuota = 0;
  const scheduler = createApplyScheduler(() => applyPending());

  const store = createStore<StreamState>()(() => ({
    messages: [],
    activityTypes: [],
    hydrated: false,
    lastEventId: null,
    storageNote: null,
    neverConnected: false,
    addOlder: async (events) => {
      await hydration;
      applyPending();
      const added = addOlder(events);
      // Resolves once storage holds them: the caller may then say the stream was filled.
      await writer.flush();
      return added;
    },
    add: (data, id = null) => {
      if (id !== null) {
        if (seenIds.has(id)) return;
        seenIds.add(id);
      }
      pending.push({ kind: "message", data, id, receivedAt: Date.now() });
      scheduler.schedule();
    },
    markPosition: (id) => {
      pending.push({ kind: "position", id });
      scheduler.schedule();
    },
    reset: () => {
      pending = [];
      seenIds.clear();
      types.clear();
      droppedForQuota = 0;
      store.setState({ messages: [], activityTypes: [], storageNote: null });
      markHistoryFilled(options.type);
      void writer.clear();
    },
  }));

  const writer = createStreamWriter({
    stream: key,
    rows: options.rows,
    flushMs: options.flushMs,
    getKeepFromSeq: () => store.getState().messages[0]?.seq ?? nextSeq,
    dropOldestForQuota,
  });

  function forget(messages: readonly StreamMessage[]): void {
    for (const message of messages) {
      if (message.id !== null) seenIds.delete(message.id);
      types.remove(message.activityType);
    }
  }

  function dropOldestForQuota(): number {
    const { messages } = store.getState();
    const count = Math.ceil(messages.length / 4);
    if (count === 0) return 0;
    forget(messages.slice(0, count));
    droppedForQuota += count;
    store.setState({
      messages: messages.slice(count),
      activityTypes: types.sorted(),
      storageNote: `Browser storage is full: the ${droppedForQuota} oldest messages were dropped.`,
    });
    return count;
  }

  function addOlder(events: readonly OlderEvent[]): number {
    const state = store.getState();
    const oldestId = state.messages.find((m) => m.id !== null)?.id ?? null;
    const fresh = events
      .filter((e) => !seenIds.has(e.id) && (oldestId === null || Number(e.id) < Number(oldestId)))
      .sort((a, b) => Number(a.id) - Number(b.id));
    const room = Math.max(0, cap - state.messages.length);
    const taken = fresh.slice(fresh.length - Math.min(room, fresh.length));
    if (taken.length === 0) return 0;
    const firstSeq = (state.messages[0]?.seq ?? nextSeq) - taken.length;
    const older = taken.map(({ id, data, receivedAt }, index): StreamMessage => ({
      stream: options.type,
      seq: firstSeq + index,
      id,
      data,
      activityType: readActivityType(data),
      receivedAt,
    }));
    for (const message of older) {
      seenIds.add(message.id!);
      types.add(message.activityType);
      // Stored beside the live rows, without moving the position a reload resumes from.
      writer.enqueue(toRow(key, message), false);
    }
    // Written at once (the caller awaits it), not after the usual delay: a reload replays live
    // rows after the stored position, but nothing else brings back history rows.
    const activityTypes = types.changed() ? types.sorted() : state.activityTypes;
    store.setState({ messages: older.concat(state.messages), activityTypes });
    return older.length;
  }

  function applyPending(): void {
    scheduler.markApplied();
    if (!hydrated || pending.length === 0) return;
    const batch = pending;
    pending = [];
    const state = store.getState();
    let lastEventId = state.lastEventId;
    const added: StreamMessage[] = [];
    // In arrival order, so storage never records a position ahead of a message it lacks.
    for (const item of batch) {
      if (item.id !== null) lastEventId = item.id;
      if (item.kind === "position") {
        writer.enqueuePosition(item.id);
        continue;
      }
      const { data, id, receivedAt } = item;
      const message: StreamMessage = {
        stream: options.type,
        seq: nextSeq++,
        id,
        data,
        activityType: readActivityType(data),
        receivedAt,
      };
      // Indexed on arrival, a few at a time, so a search never pays for 10,000 at once.
      searchTextOf(message);
      types.add(message.activityType);
      added.push(message);
      writer.enqueue(toRow(key, message));
    }
    let messages = state.messages.concat(added);
    if (messages.length > cap) {
      forget(messages.slice(0, messages.length - cap));
      messages = messages.slice(messages.length - cap);
    }
    const activityTypes = types.changed() ? types.sorted() : state.activityTypes;
    store.setState({ messages, activityTypes, lastEventId });
  }

  const hydration = hydrate();
  async function hydrate(): Promise<void> {
    const rowsStore = await options.rows;
    let loaded: { rows: StoredRow[]; lastEventId: string | null } = { rows: [], lastEventId: null };
    try {
      if (rowsStore) {
        // The newest screenful first, shown while the rest is read (a reload paints sooner).
        const newest = await rowsStore.loadNewest(key, PREVIEW_ROWS);
        if (!hydrated && newest.length > 0 && store.getState().messages.length === 0) {
          store.setState({ messages: newest.map((row) => fromRow(options.type, row)) });
        }
        loaded = await rowsStore.load(key);
      }
    } catch (error) {
      console.warn(`could not read stored ${key} messages`, error);
    }
    const messages = loaded.rows.slice(-cap).map((row) => fromRow(options.type, row));
    const storedIds = new Set<string>();
    for (const message of messages) {
      if (message.id !== null) storedIds.add(message.id);
      types.add(message.activityType);
    }
    for (const id of storedIds) seenIds.add(id);
    // Anything that arrived while we were reading is kept unless storage already had it.
    pending = pending.filter(
      (item) => item.kind === "position" || item.id === null || !storedIds.has(item.id),
    );
    nextSeq = Math.max(nextSeq, (messages.at(-1)?.seq ?? -1) + 1);
    hydrated = true;
    store.setState({
      messages,
      activityTypes: types.sorted(),
      hydrated: true,
      neverConnected: messages.length === 0 && !historyFilled(options.type),
      lastEventId: loaded.lastEventId ?? messages.findLast((m) => m.id !== null)?.id ?? null,
      storageNote: rowsStore
        ? null
        : "Browser storage is unavailable: messages will not survive a reload.",
    });
    types.changed();
    applyPending();
  }

  return Object.assign(store, {
    whenIdle: async () => {
      await hydration;
      applyPending();
      await writer.flush();
    },
  });
}

function toRow(stream: string, message: StreamMessage): StoredRow {
  const { seq, id, data, receivedAt } = message;
  return { stream, seq, id, data, receivedAt };
}

function fromRow(stream: StreamType, row: StoredRow): StreamMessage {
  return {
    stream,
    seq: row.seq,
    id: row.id,
    data: row.data,
    activityType: readActivityType(row.data),
    receivedAt: row.receivedAt ?? null,
  };
}

let sharedRows: Promise<StreamRowsStore | null> | null = null;
const sharedStores = new Map<StreamType, StreamStore>();

/** The page's store for a stream type, created (and hydrated from IndexedDB) on first use. */
export function getStreamStore(type: StreamType): StreamStore {
  sharedRows ??= openStreamRowsStore().catch((error: unknown) => {
    console.warn("IndexedDB is unavailable; stream messages will not survive a reload", error);
    return null;
  });
  let store = sharedStores.get(type);
  if (!store) sharedStores.set(type, (store = createStreamStore({ type, rows: sharedRows })));
  return store;
}

export function useStreamStore<T>(type: StreamType, selector: (state: StreamState) => T): T {
  return useStore(getStreamStore(type), selector);
}
