// Batches stream rows into one IndexedDB transaction every ~250 ms, one write at a time, and
// turns a full quota into "drop the oldest and try again" instead of a crash. The event id to
// resume from is stored in the same transaction as the rows it covers, taken from the batch
// itself, so storage never claims a message it does not hold: a reload resumes from there and the
// server replays whatever had only reached memory.
import { isQuotaError, type StoredRow, type StreamRowsStore } from "./idb-stream-rows.ts";

export type StreamWriterOptions = {
  stream: string;
  rows: Promise<StreamRowsStore | null>;
  flushMs?: number;
  /** The oldest seq still held in memory; rows below it are deleted from storage. */
  getKeepFromSeq: () => number;
  /** Drops the oldest messages from memory after a full quota; returns how many went. */
  dropOldestForQuota: () => number;
};

export type StreamWriter = {
  /** `movesPosition` false: an older row (from the server's history) that is no place to resume. */
  enqueue: (row: StoredRow, movesPosition?: boolean) => void;
  /** The server's position, written at once: no message has come after it yet. */
  enqueuePosition: (id: string) => void;
  /** Forgets queued rows and the stream's stored rows. */
  clear: () => Promise<void>;
  /** Writes whatever is queued now and resolves when storage has caught up. */
  flush: () => Promise<void>;
};

const MAX_QUOTA_RETRIES = 8;

export function createStreamWriter(options: StreamWriterOptions): StreamWriter {
  const flushMs = options.flushMs ?? 250;
  let queued: StoredRow[] = [];
  // The newest event id among the queued rows and positions, in arrival order.
  let queuedLastId: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Every storage operation runs after the previous one, so a reset never races a write.
  let chain: Promise<void> = Promise.resolve();

  function runInOrder(operation: (store: StreamRowsStore) => Promise<void>): Promise<void> {
    const next = chain.then(async () => {
      const store = await options.rows;
      if (store) await operation(store);
    });
    chain = next.catch(() => {});
    return next;
  }

  async function writeBatch(
    store: StreamRowsStore,
    batch: StoredRow[],
    lastEventId: string | null,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const keepFrom = options.getKeepFromSeq();
      const rows = batch.filter((row) => row.seq >= keepFrom);
      try {
        await store.write(options.stream, rows, keepFrom, lastEventId);
        return;
      } catch (error) {
        if (!isQuotaError(error)) {
          console.error(`could not store ${options.stream} messages`, error);
          return;
        }
        const dropped = attempt < MAX_QUOTA_RETRIES ? options.dropOldestForQuota() : 0;
        if (dropped === 0) {
          console.warn(
            `storage is full: ${rows.length} ${options.stream} messages are kept in memory only`,
          );
          return;
        }
        console.warn(`storage is full: dropped the ${dropped} oldest ${options.stream} messages`);
      }
    }
  }

  function writeQueued(): Promise<void> {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const batch = queued;
    const lastEventId = queuedLastId;
    queued = [];
    queuedLastId = null;
    if (batch.length === 0 && lastEventId === null) return runInOrder(() => Promise.resolve());
    return runInOrder((store) => writeBatch(store, batch, lastEventId));
  }

  return {
    enqueue(row, movesPosition = true) {
      queued.push(row);
      if (row.id !== null && movesPosition) queuedLastId = row.id;
      timer ??= setTimeout(() => void writeQueued(), flushMs);
    },
    enqueuePosition(id) {
      queuedLastId = id;
      void writeQueued();
    },
    clear() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      queued = [];
      queuedLastId = null;
      return runInOrder((store) => store.clear(options.stream)).catch((error: unknown) => {
        console.error(`could not clear stored ${options.stream} messages`, error);
      });
    },
    flush: writeQueued,
  };
}
