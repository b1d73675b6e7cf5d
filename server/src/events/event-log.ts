// Per account and stream, a numbered, bounded history of events. append() stores and announces;
// readAfter() is what SSE replays; watch() is how SSE follows a stream live, one shared read per
// notification per stream in this process (fan-out.ts).

import { getLogger } from "@logtape/logtape";
import type { BusMessage, EventBus } from "../db/bus.ts";
import type { Db } from "../db/db.ts";
import { scheduleSearchIndexing } from "../db/event-search.store.ts";
import {
  appendEvents,
  type AppendedEvent,
  type InboxClaim,
  lastEventSeq,
  pruneEvents,
  readEventsAfter,
  type StoredEvent,
} from "../db/events.store.ts";
import { createFanOut, type Watch, type WatchHandlers } from "./fan-out.ts";
import { withMeta } from "./event-meta.ts";
import { eventJson, MAX_EVENT_BYTES } from "./fit-event.ts";
import { streamNames, type StreamName } from "./streams.ts";
import { fillFirstTriggerBodies, fillTriggerBodies, SentBodies } from "./trigger-bodies.ts";

const log = getLogger(["corral", "events"]);

export type { StoredEvent, Watch, WatchHandlers };

/** A bus message about one of the streams (other names on the bus are not ours and are dropped). */
export type StreamMessage = BusMessage & { stream: StreamName };

export interface EventLogOptions {
  /** Events kept per stream (at least; pruning runs every `pruneEvery` appends of a stream). */
  cap: number;
  /** Default: the cap, at most 100. */
  pruneEvery?: number;
  /** Larger events are stored cut down, with "truncated": true (fit-event.ts). */
  maxEventBytes?: number;
}

export interface EventLog {
  /**
   * Stores `data` as the next event of the stream and announces it; returns the seq.
   * `upstreamId`: the id an upstream gave it (recorded events), unique per account. `claim`:
   * the inbox claim the event stores, marked stored in the append's own commit.
   */
  append(
    accountId: number,
    stream: StreamName,
    data: object,
    options?: { upstreamId?: string; claim?: InboxClaim },
  ): Promise<number>;
  /**
   * append(), with the inbox claim the event stores taken in the append's own commit
   * (docs/adr/0020-inbox-claims-in-the-append.md): stored only if the claim is new, or was left
   * unstored since before `staleBefore` (ms); the seq, or null when another copy holds the claim
   * (a replay, or a copy still being stored: inbox_seen tells which).
   */
  appendTaking(
    accountId: number,
    stream: StreamName,
    data: object,
    takes: { claim: InboxClaim; staleBefore: number },
  ): Promise<number | null>;
  /** Events after `afterSeq`, oldest first, at most `limit` (data is the stored JSON text). */
  readAfter(
    accountId: number,
    stream: StreamName,
    afterSeq: number,
    limit?: number,
  ): Promise<StoredEvent[]>;
  /** The newest seq of a stream, 0 when empty. */
  lastSeq(accountId: number, stream: StreamName): Promise<number>;
  subscribe(listener: (message: StreamMessage) => void): () => void;
  /** Every event after `after` (null: from now on), then each new one as it is stored. */
  watch(
    accountId: number,
    stream: StreamName,
    after: number | null,
    handlers: WatchHandlers,
  ): Promise<Watch>;
  /** Live watches in this process. */
  watchers(): number;
  /**
   * Calls `listener` with each group of events this process appends, once stored: unlike
   * subscribe() (every process hears of every append), only the appending process hears it, so
   * that a transport publishing events (Cattle Drive over AMQP) publishes each once.
   */
  onAppended(listener: AppendListener): () => void;
  /**
   * Runs `work` in a transaction and, when it answers true, stores `data` as the stream's next
   * event and runs `after` with its seq in that same transaction, so that the stream never says
   * something happened that did not, or the reverse (a send's queued deliveries). Announced and
   * pruned as append()'s events are; the seq, or null when `work` declined.
   */
  appendInTransaction(
    accountId: number,
    stream: StreamName,
    data: object,
    work: (tx: Db) => Promise<boolean>,
    after?: (tx: Db, seq: number) => Promise<void>,
  ): Promise<number | null>;
  /**
   * What watch() hands a connection, as it sends it: a trigger's error events carry its body in
   * the first of them the connection sends, not in each (trigger-bodies.ts).
   */
  completeForConnection(rows: StoredEvent[], sent: SentBodies): Promise<StoredEvent[]>;
}

export { SentBodies };

export type AppendListener = (accountId: number, stream: StreamName, rows: StoredEvent[]) => void;

interface Pending {
  event: AppendedEvent;
  /** The seq, or null when another copy holds the claim the event takes. */
  resolve(seq: number | null): void;
  reject(error: unknown): void;
}

// What one statement stores at most: events, and characters of JSON (at least one event).
const MAX_GROUP = 500;
const MAX_GROUP_BYTES = 1024 * 1024;

function takeGroup(queue: Pending[]): Pending[] {
  let n = 0;
  let bytes = 0;
  while (
    n < queue.length &&
    n < MAX_GROUP &&
    (n === 0 || bytes + queue[n]!.event.json.length <= MAX_GROUP_BYTES)
  )
    bytes += queue[n++]!.event.json.length;
  return queue.splice(0, n);
}

const claimKey = (c: InboxClaim) => `${c.actorId}\u0000${c.activityId}\u0000${c.senderId}`;

/**
 * The group without the events that take a claim an earlier event of the group already names:
 * those are answered null at once (another copy holds the claim), for one statement may name a
 * claim once only.
 */
function withClaimsOnce(group: Pending[]): Pending[] {
  if (!group.some((p) => p.event.takes)) return group;
  const named = new Set<string>();
  const once: Pending[] = [];
  for (const pending of group) {
    const claim = pending.event.takes?.claim ?? pending.event.claim;
    const key = claim ? claimKey(claim) : null;
    if (key !== null && named.has(key) && pending.event.takes) {
      pending.resolve(null);
      continue;
    }
    if (key !== null) named.add(key);
    once.push(pending);
  }
  return once;
}

export function createEventLog(db: Db, bus: EventBus, options: EventLogOptions): EventLog {
  const pruneEvery = options.pruneEvery ?? Math.min(options.cap, 100);
  // PostgreSQL's bus hears appends from the append's own statement (db/bus.ts, appendChannel).
  const announce = bus.appendChannel;
  const maxBytes = options.maxEventBytes ?? MAX_EVENT_BYTES;
  // Error events of a trigger are stored without its body (report-error.ts); a reader of the
  // log gets them whole, a connection once per trigger (completeForConnection).
  const readAfter = async (accountId: number, stream: string, afterSeq: number, limit = 500) => {
    const rows = await readEventsAfter(db, accountId, stream, afterSeq, limit);
    return stream === "error" ? fillTriggerBodies(db, rows) : rows;
  };
  const subscribe = (listener: (message: StreamMessage) => void) =>
    bus.subscribe((message) => {
      if ((streamNames as readonly string[]).includes(message.stream))
        listener(message as StreamMessage);
    });
  const fanOut = createFanOut({
    readAfter: (accountId, stream, afterSeq, limit) =>
      readEventsAfter(db, accountId, stream, afterSeq, limit),
    lastSeq: (accountId, stream) => lastEventSeq(db, accountId, stream),
    subscribe,
  });

  // Appends to one stream take turns on its counter row, each holding it until its commit. So
  // that one busy stream is not one commit at a time, the appends made in one turn of the event
  // loop, or while a group is being stored, wait and go together as the next group: one
  // statement, one commit. (SQLite stores at once: there only the turn makes groups.)
  const queues = new Map<string, Pending[]>();
  const appendListeners = new Set<AppendListener>();
  const announceAppended = (accountId: number, stream: StreamName, rows: StoredEvent[]) => {
    for (const listener of appendListeners) {
      try {
        listener(accountId, stream, rows);
      } catch (error) {
        log.error("an append listener failed: {error}", {
          error: (error as Error)?.message ?? String(error),
        });
      }
    }
  };
  // What follows every commit of events, whichever way they were appended: the bus hears of
  // the last, old events are pruned when a multiple of pruneEvery was passed, and this
  // process's onAppended listeners get the rows.
  const stored = async (
    accountId: number,
    stream: StreamName,
    first: number,
    jsons: string[],
    createdAt: number,
  ) => {
    const last = first + jsons.length - 1;
    // After the commit, and not awaited: history's search copy (PostgreSQL) comes later.
    scheduleSearchIndexing(db);
    // This process's live streams take the rows as stored, before the bus's notification, which
    // then finds them caught up: no read of what was just written
    // (docs/adr/0019-inbox-read-before-node-http.md).
    fanOut.stored(
      accountId,
      stream,
      jsons.map((data, i) => ({ seq: first + i, data, createdAt })),
    );
    if (announce === undefined)
      await bus.publish({ accountId, stream, seq: last }).catch((error: Error) =>
        log.error("announcing {stream} event {seq} failed: {error}", {
          stream,
          seq: last,
          error: error.message,
        }),
      );
    // Outside the append: the counter row is not held while old events are deleted, and a
    // failed prune costs only space until the next one.
    if (
      Math.floor(last / pruneEvery) > Math.floor((first - 1) / pruneEvery) &&
      last > options.cap
    ) {
      await pruneEvents(db, accountId, stream, last - options.cap).catch((error: Error) =>
        log.error("pruning {stream} of account {accountId} failed: {error}", {
          stream,
          accountId,
          error: error.message,
        }),
      );
    }
    if (appendListeners.size > 0)
      announceAppended(
        accountId,
        stream,
        jsons.map((data, i) => ({ seq: first + i, data, createdAt })),
      );
  };
  const store = async (accountId: number, stream: StreamName, queue: Pending[], key: string) => {
    while (queue.length > 0) {
      const group = withClaimsOnce(takeGroup(queue));
      let kept = group;
      let last: number;
      const now = Date.now();
      try {
        const appended = await appendEvents(
          db,
          accountId,
          stream,
          group.map((p) => p.event),
          announce,
          now,
        );
        last = appended.last;
        if (appended.dropped.size > 0) {
          kept = group.filter((_, i) => !appended.dropped.has(i));
          for (const i of appended.dropped) group[i]!.resolve(null);
        }
      } catch (error) {
        for (const pending of group) pending.reject(error);
        continue;
      }
      if (kept.length === 0) continue;
      const first = last - kept.length + 1;
      await stored(
        accountId,
        stream,
        first,
        kept.map((p) => p.event.json),
        now,
      );
      kept.forEach((pending, i) => pending.resolve(first + i));
    }
    queues.delete(key);
  };

  const enqueue = (accountId: number, stream: StreamName, event: AppendedEvent) => {
    const key = `${accountId}\u0000${stream}`;
    return new Promise<number | null>((resolve, reject) => {
      const pending: Pending = { event, resolve, reject };
      const queue = queues.get(key);
      if (queue) return void queue.push(pending);
      const fresh: Pending[] = [pending];
      queues.set(key, fresh);
      setImmediate(() => void store(accountId, stream, fresh, key));
    });
  };

  return {
    append(accountId, stream, data, options) {
      const event = withMeta(eventJson(data, maxBytes), data);
      if (options?.upstreamId !== undefined) event.upstreamId = options.upstreamId;
      if (options?.claim !== undefined) event.claim = options.claim;
      return enqueue(accountId, stream, event) as Promise<number>;
    },
    appendTaking(accountId, stream, data, takes) {
      const event = withMeta(eventJson(data, maxBytes), data);
      event.takes = takes;
      return enqueue(accountId, stream, event);
    },
    readAfter,
    lastSeq: (accountId, stream) => lastEventSeq(db, accountId, stream),
    subscribe,
    watch: (accountId, stream, after, handlers) => fanOut.watch(accountId, stream, after, handlers),
    watchers: () => fanOut.watchers(),
    completeForConnection: (rows, sent) => fillFirstTriggerBodies(db, rows, sent),
    onAppended(listener) {
      appendListeners.add(listener);
      return () => appendListeners.delete(listener);
    },
    async appendInTransaction(accountId, stream, data, work, after) {
      const event = withMeta(eventJson(data, maxBytes), data);
      // Its seq comes from the stream's counter row, as the grouped appends' do (docs/adr/0008).
      const now = Date.now();
      const seq = await db.transaction(async (tx) => {
        if (!(await work(tx))) return null;
        const seq = (await appendEvents(tx, accountId, stream, [event], announce, now)).last;
        await after?.(tx, seq);
        return seq;
      });
      if (seq !== null) await stored(accountId, stream, seq, [event.json], now);
      return seq;
    },
  };
}
