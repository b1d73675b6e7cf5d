import { getLogger } from "@logtape/logtape";
import type { Db } from "./db.ts";

// PostgreSQL only: the event_search table (history's substring filters, under pg_trgm's GIN
// indexes) and event_search_marks (per stream, the newest seq copied into it). An append writes
// events alone; the copy is made here, after the append's commit, in groups (docs/
// history-search.md). Appends to one stream commit in seq order (they take turns on the stream's
// counter row), so the events one statement sees above a stream's mark are that stream's next
// ones without a gap, and the mark can move to the newest of them.

const log = getLogger(["corral", "db"]);

/** Events copied per statement: GIN's pending list takes a group far faster than one at a time. */
const GROUP = 2000;
/**
 * The copy starts once appends have paused this long: during a burst of them (the inbox under
 * load) it would take the CPU that the appends' senders are waiting for, and what arrives
 * meanwhile goes in one group.
 */
const QUIET_MS = 250;
/**
 * …or at the latest this long after the first append it has not copied, so that under sustained
 * load history's searches scan at most about this much of each stream above the mark.
 */
const MAX_WAIT_MS = 2000;
/** The lock that keeps processes sharing a database from copying the same events at once. */
const LOCK = 0x636f7273;

interface Indexer {
  quietMs: number;
  maxWaitMs: number;
  timer?: NodeJS.Timeout;
  /** When the first append not yet asked of a pass asked for one (ms). */
  firstAsked?: number;
  running?: Promise<void>;
  /** Asked again while a pass was running: run another when it ends. */
  again: boolean;
  stopped: boolean;
}

const indexers = new WeakMap<Db, Indexer>();

const indexerOf = (db: Db): Indexer => {
  let indexer = indexers.get(db);
  if (!indexer)
    indexers.set(
      db,
      (indexer = { quietMs: QUIET_MS, maxWaitMs: MAX_WAIT_MS, again: false, stopped: false }),
    );
  return indexer;
};

/**
 * Asks for the events appended so far to be copied into event_search soon: once appends pause
 * (QUIET_MS), at the latest MAX_WAIT_MS after the first not yet asked of a pass (PostgreSQL;
 * nothing on SQLite). Call it with the pool's Db after the append has committed, never with a
 * transaction's.
 */
export function scheduleSearchIndexing(db: Db): void {
  if (db.dialect !== "postgres") return;
  const indexer = indexerOf(db);
  if (indexer.stopped) return;
  if (indexer.running) {
    indexer.again = true;
    return;
  }
  const now = Date.now();
  indexer.firstAsked ??= now;
  clearTimeout(indexer.timer);
  const at = Math.min(now + indexer.quietMs, indexer.firstAsked + indexer.maxWaitMs);
  indexer.timer = setTimeout(() => {
    indexer.timer = undefined;
    indexer.firstAsked = undefined;
    indexer.running = runPasses(db, indexer).finally(() => {
      indexer.running = undefined;
      if (indexer.again && !indexer.stopped) {
        indexer.again = false;
        scheduleSearchIndexing(db);
      }
    });
  }, at - now);
  indexer.timer.unref();
}

/** Other waits than QUIET_MS and MAX_WAIT_MS for the indexer of `db` (tests). */
export function setSearchIndexingWaits(db: Db, waits: { quietMs: number; maxWaitMs: number }) {
  Object.assign(indexerOf(db), waits);
}

/** Stops the indexer of `db` and waits for a running pass (before the pool closes). */
export async function stopSearchIndexing(db: Db): Promise<void> {
  const indexer = indexers.get(db);
  if (!indexer) return;
  indexer.stopped = true;
  clearTimeout(indexer.timer);
  await indexer.running;
}

async function runPasses(db: Db, indexer: Indexer): Promise<void> {
  try {
    while (!indexer.stopped && (await indexSearchGroup(db)) > 0);
  } catch (error) {
    log.error(
      "copying events into history's search table failed ({error}): history still finds them by scanning the events not yet copied, and the next append tries again",
      { error: (error as Error).message },
    );
  }
}

/**
 * Copies up to one group of events not yet in event_search, oldest first per stream, and moves
 * the streams' marks; how many it copied (0: all caught up, or another process holds the turn,
 * unless `wait` makes it wait for that turn).
 */
export async function indexSearchGroup(db: Db, options: { wait?: boolean } = {}): Promise<number> {
  return db.transaction(async (tx) => {
    // The copy is derived from committed events, its marks in the same transaction: a copy lost
    // with a crash of PostgreSQL is made again, so its commit does not wait for a WAL flush
    // (this transaction's setting only), and leaves the disk to the inbox's appends.
    const quick = `set_config('synchronous_commit', 'off', true)`;
    if (options.wait) await tx.run(`SELECT pg_advisory_xact_lock(?), ${quick}`, [LOCK]);
    else {
      const turn = await tx.get<{ ok: boolean }>(
        `SELECT pg_try_advisory_xact_lock(?) AS ok, ${quick}`,
        [LOCK],
      );
      if (!turn?.ok) return 0;
    }
    const pending = await tx.all<{ account_id: number; stream: string; mark: number }>(
      `SELECT s.account_id, s.stream, COALESCE(m.indexed_seq, 0) AS mark
       FROM event_streams s LEFT JOIN event_search_marks m
         ON m.account_id = s.account_id AND m.stream = s.stream
       WHERE s.seq > COALESCE(m.indexed_seq, 0)`,
    );
    let copied = 0;
    for (const { account_id, stream, mark } of pending) {
      if (copied >= GROUP) break;
      const row = await tx.get<{ n: number; last: number | null }>(
        // Counted from what was read, not what was inserted: a turn that waited for another
        // process's may read marks that process has since moved, and copies nothing new for them
        // (ON CONFLICT), but still moves on.
        `WITH batch AS (
           SELECT account_id, stream, seq, data, actors, hosts FROM events
           WHERE account_id = ? AND stream = ? AND seq > ? ORDER BY seq LIMIT ?),
         copied AS (
           INSERT INTO event_search (account_id, stream, seq, data, actors, hosts)
           SELECT * FROM batch ON CONFLICT DO NOTHING)
         SELECT COUNT(*) AS n, MAX(seq) AS last FROM batch`,
        [account_id, stream, mark, GROUP - copied],
      );
      const n = Number(row?.n ?? 0);
      if (n === 0 || row?.last == null) continue;
      copied += n;
      await tx.run(
        `INSERT INTO event_search_marks (account_id, stream, indexed_seq) VALUES (?, ?, ?)
         ON CONFLICT (account_id, stream) DO UPDATE
         SET indexed_seq = GREATEST(event_search_marks.indexed_seq, excluded.indexed_seq)`,
        [account_id, stream, Number(row.last)],
      );
    }
    return copied;
  });
}

/** The newest seq of the stream copied into event_search; events above it are not there yet. */
export async function searchMark(db: Db, accountId: number, stream: string): Promise<number> {
  const row = await db.get<{ indexed_seq: number }>(
    `SELECT indexed_seq FROM event_search_marks WHERE account_id = ? AND stream = ?`,
    [accountId, stream],
  );
  return Number(row?.indexed_seq ?? 0);
}
