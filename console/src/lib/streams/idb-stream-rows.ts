// IndexedDB storage for stream messages: one row per message keyed by [stream, seq], so adding a
// message appends rows instead of rewriting a whole list (localStorage's ~5 MB and whole-value
// writes cannot hold thousands of messages; see bench/README.md).

export type StoredRow = {
  stream: string;
  seq: number;
  id: string | null;
  data: unknown;
  /** Added after the first release: rows stored before it have none. */
  receivedAt?: number | null;
};
type MetaRow = { stream: string; lastEventId: string | null };

export type StreamRowsStore = {
  /** Every row of the stream, oldest first, and the last event id remembered for it. */
  load: (stream: string) => Promise<{ rows: StoredRow[]; lastEventId: string | null }>;
  /** The newest `count` rows, oldest first: a reload paints these before the rest is read. */
  loadNewest: (stream: string, count: number) => Promise<StoredRow[]>;
  /**
   * One transaction: drops rows below `keepFromSeq`, appends `rows`, and remembers `lastEventId`
   * as the id to resume from (null leaves the remembered one as it is).
   */
  write: (
    stream: string,
    rows: StoredRow[],
    keepFromSeq: number,
    lastEventId: string | null,
  ) => Promise<void>;
  /** Forgets the stream's rows; the last event id stays so a reload does not replay them. */
  clear: (stream: string) => Promise<void>;
};

const DB_NAME = "corral-console";
const DB_VERSION = 1;
const ROWS = "stream-rows";
const META = "stream-meta";
const LOAD_PAGE = 1000;

export function openStreamRowsStore(
  factory: IDBFactory = globalThis.indexedDB,
  name = DB_NAME,
): Promise<StreamRowsStore> {
  return new Promise((resolve, reject) => {
    if (!factory) return reject(new Error("IndexedDB is not available"));
    const request = factory.open(name, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(ROWS))
        db.createObjectStore(ROWS, { keyPath: ["stream", "seq"] });
      if (!db.objectStoreNames.contains(META)) db.createObjectStore(META, { keyPath: "stream" });
    };
    request.onerror = () => reject(request.error ?? new Error("IndexedDB open failed"));
    request.onsuccess = () => resolve(createRowsStore(request.result));
  });
}

function rangeOf(
  stream: string,
  fromSeq = -Infinity,
  toSeq = Infinity,
  toOpen = false,
): IDBKeyRange {
  return IDBKeyRange.bound([stream, fromSeq], [stream, toSeq], false, toOpen);
}

function finish(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    // QuotaExceededError surfaces here, as the transaction's error, when the commit cannot fit.
    transaction.onabort = () =>
      reject(transaction.error ?? new DOMException("aborted", "AbortError"));
    transaction.onerror = (event) => event.preventDefault();
  });
}

function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function createRowsStore(db: IDBDatabase): StreamRowsStore {
  return {
    async load(stream) {
      const rows: StoredRow[] = [];
      // Paged so one huge getAll does not deserialise everything in a single long task.
      for (let from = -Infinity; ;) {
        const transaction = db.transaction(ROWS, "readonly");
        const page = await requestResult(
          transaction.objectStore(ROWS).getAll(rangeOf(stream, from), LOAD_PAGE) as IDBRequest<
            StoredRow[]
          >,
        );
        rows.push(...page);
        if (page.length < LOAD_PAGE) break;
        from = page[page.length - 1]!.seq + 1;
      }
      const meta = await requestResult(
        db.transaction(META, "readonly").objectStore(META).get(stream) as IDBRequest<
          MetaRow | undefined
        >,
      );
      return { rows, lastEventId: meta?.lastEventId ?? null };
    },
    async loadNewest(stream, count) {
      const store = db.transaction(ROWS, "readonly").objectStore(ROWS);
      // One step of a backwards key cursor finds the newest seq without reading any row.
      const cursor = await requestResult(store.openKeyCursor(rangeOf(stream), "prev"));
      if (!cursor) return [];
      const newest = (cursor.key as [string, number])[1];
      return requestResult(
        store.getAll(rangeOf(stream, newest - count + 1, newest)) as IDBRequest<StoredRow[]>,
      );
    },
    async write(stream, rows, keepFromSeq, lastEventId) {
      const transaction = db.transaction([ROWS, META], "readwrite");
      const done = finish(transaction);
      const store = transaction.objectStore(ROWS);
      store.delete(rangeOf(stream, -Infinity, keepFromSeq, true));
      for (const row of rows) store.put(row);
      if (lastEventId !== null) {
        transaction.objectStore(META).put({ stream, lastEventId } satisfies MetaRow);
      }
      await done;
    },
    async clear(stream) {
      const transaction = db.transaction(ROWS, "readwrite");
      const done = finish(transaction);
      transaction.objectStore(ROWS).delete(rangeOf(stream));
      await done;
    },
  };
}

export function isQuotaError(error: unknown): boolean {
  return error instanceof DOMException
    ? error.name === "QuotaExceededError" || error.code === 22
    : error instanceof Error && error.name === "QuotaExceededError";
}
