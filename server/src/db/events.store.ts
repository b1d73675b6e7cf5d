import type { Db } from "./db.ts";
import { searchMark } from "./event-search.store.ts";

// The events table and its per-stream counter (event_streams). An append takes the next seq by
// bumping the stream's counter row in the same transaction as the insert: the row lock makes
// appends to one stream take turns, so seqs commit in order and a reader never sees N+1 before
// N (docs/adr/0008-event-log-appends.md). It lives in db/ because the append differs by dialect.

export interface StoredEvent {
  seq: number;
  data: string;
  /** When it was stored, ms since the epoch. */
  createdAt: number;
}

/** One event to append: its JSON, and what history filters match it by (null: nothing). */
export interface AppendedEvent {
  json: string;
  /** The activity's type. */
  kind?: string | null;
  /** Actor ids, space-separated, a space at each end. */
  actors?: string | null;
  /** Hosts, space-separated, a space at each end. */
  hosts?: string | null;
  /** The id an upstream gave the event (recorded from its broker); unique per account. */
  upstreamId?: string | null;
  /**
   * The inbox's claim (inbox_seen) that this event stores: marked stored by the append itself,
   * so that the event and the mark commit together (no second commit, and no moment at which
   * the event is stored and its claim still open to a stale takeover that would store it twice).
   */
  claim?: InboxClaim | null;
  /**
   * The inbox claim this event takes in its own append (docs/adr/0020-inbox-claims-in-the-append.md):
   * the event is stored only if the claim is new, or was left unstored since before `staleBefore`
   * (ms) by a process that died; the claim goes in as stored, in the same commit. An event whose
   * claim another copy holds is left out (appendEvents' `dropped`); its sender finds out which
   * (a replay, or a copy still being stored) from inbox_seen.
   */
  takes?: { claim: InboxClaim; staleBefore: number } | null;
}

/** What an append stored: the last seq handed out, and the events left out (their indexes). */
export interface Appended {
  /** The stream's seq of the last event stored (0 when none was). */
  last: number;
  /** Indexes in the given order of the events whose `takes` claim another copy holds. */
  dropped: ReadonlySet<number>;
}

/** An inbox_seen row's key: the receiving actor, the activity id and its sender. */
export interface InboxClaim {
  actorId: string;
  activityId: string;
  senderId: string;
}

// PostgreSQL: one statement, so one round trip and READ COMMITTED (a SERIALIZABLE transaction
// would fail with 40001 when two appends update the same counter row). ON CONFLICT DO UPDATE
// waits for the row lock and then adds to the newest committed value. The events come as one
// JSON array of objects. First the claims the events take (AppendedEvent.takes) go in as stored,
// in a fixed order so that two statements taking the same claims wait for each other rather
// than deadlock; an event whose claim another copy holds is left out. The group's k remaining
// events then take seqs last-k+1 … last, and the claims others made earlier are marked stored
// (AppendedEvent.claim). With a bus channel (`announce`), the same statement NOTIFYs it of the
// last seq, in the shape the bus reads (db/postgres-bus.ts: accountId, stream, seq); PostgreSQL
// delivers it as the append commits, and never for an append that does not. When every event
// is left out, no counter is bumped and no row comes back.
const appendPostgres = (announce: boolean) => `WITH input AS (
    SELECT * FROM ROWS FROM (json_to_recordset((?::text)::json) AS (
      data text, kind text, actors text, hosts text, upstream_id text,
      actor_id text, activity_id text, sender_id text, takes boolean)) WITH ORDINALITY AS i(
      data, kind, actors, hosts, upstream_id, actor_id, activity_id, sender_id, takes, ord)),
  taken AS (
    INSERT INTO inbox_seen (actor_id, activity_id, sender_id, received_at, stored)
    SELECT i.actor_id, i.activity_id, i.sender_id, ?, 1 FROM input i WHERE i.takes
    ORDER BY i.actor_id, i.activity_id, i.sender_id
    ON CONFLICT (actor_id, activity_id, sender_id) DO UPDATE
      SET received_at = excluded.received_at, stored = 1
      WHERE inbox_seen.stored = 0 AND inbox_seen.received_at < ?
    RETURNING actor_id, activity_id, sender_id),
  kept AS (
    SELECT i.*, row_number() OVER (ORDER BY i.ord) AS n FROM input i
    WHERE NOT i.takes OR EXISTS (SELECT 1 FROM taken t WHERE t.actor_id = i.actor_id
      AND t.activity_id = i.activity_id AND t.sender_id = i.sender_id)),
  counted AS (SELECT COUNT(*) AS k FROM kept),
  next AS (
    INSERT INTO event_streams (account_id, stream, seq) SELECT ?, ?, counted.k FROM counted
    WHERE counted.k > 0
    ON CONFLICT (account_id, stream) DO UPDATE SET seq = event_streams.seq + excluded.seq
    RETURNING seq),
  appended AS (
    INSERT INTO events (account_id, stream, seq, data, created_at, kind, actors, hosts, upstream_id)
    SELECT ?, ?, next.seq - counted.k + kept.n, kept.data, ?, kept.kind, kept.actors, kept.hosts,
      kept.upstream_id
    FROM next, counted, kept),
  marked AS (
    UPDATE inbox_seen SET stored = 1 WHERE (actor_id, activity_id, sender_id) IN (
      SELECT i.actor_id, i.activity_id, i.sender_id FROM input i
      WHERE i.actor_id IS NOT NULL AND NOT i.takes))
  SELECT next.seq AS last,
    (SELECT json_agg(i.ord - 1) FROM input i WHERE i.ord NOT IN (SELECT ord FROM kept))::text
      AS dropped${
        announce
          ? `, pg_notify(?, json_build_object('accountId', ?::bigint, 'stream', ?::text, 'seq', next.seq)::text) AS announced`
          : ""
      } FROM next`;
const appendQuietly = appendPostgres(false);
const appendAnnounced = appendPostgres(true);

const bumpCounter = `INSERT INTO event_streams (account_id, stream, seq) VALUES (?, ?, ?)
  ON CONFLICT (account_id, stream) DO UPDATE SET seq = event_streams.seq + excluded.seq
  RETURNING seq`;

// SQLite: a claim taken by its event's append (AppendedEvent.takes), one statement per claim:
// a row back when it went in, or took over a stale one; none when another copy holds it.
const takeClaimSqlite = `INSERT INTO inbox_seen (actor_id, activity_id, sender_id, received_at, stored)
  VALUES (?, ?, ?, ?, 1)
  ON CONFLICT (actor_id, activity_id, sender_id) DO UPDATE
    SET received_at = excluded.received_at, stored = 1
    WHERE inbox_seen.stored = 0 AND inbox_seen.received_at < ?
  RETURNING 1 AS taken`;

const NONE_DROPPED: ReadonlySet<number> = new Set();

/**
 * Stores `events` as the stream's next events, in order, in one transaction, with the inbox
 * claims they take or store (AppendedEvent.takes, .claim) marked stored: the last seq, and the
 * events left out because another copy holds their claim. The caller gives each claim at most
 * once per call.
 * `announce`: on PostgreSQL, the bus's NOTIFY channel (EventBus.appendChannel), told of the last
 * seq by the append itself; ignored on SQLite.
 */
export async function appendEvents(
  db: Db,
  accountId: number,
  stream: string,
  events: readonly AppendedEvent[],
  announce?: string,
  /** Their created_at (the event log hands the rows, as stored, to the live streams). */
  now = Date.now(),
): Promise<Appended> {
  if (db.dialect === "postgres") {
    // Objects, one per event, that json_to_recordset reads in one pass each (`->>` on a json
    // array element parses the element, event text included, once per field).
    let staleBefore = 0;
    const json = JSON.stringify(
      events.map((e) => {
        const claim = e.takes?.claim ?? e.claim;
        if (e.takes) staleBefore = Math.max(staleBefore, e.takes.staleBefore);
        return {
          data: e.json,
          kind: e.kind ?? null,
          actors: e.actors ?? null,
          hosts: e.hosts ?? null,
          upstream_id: e.upstreamId ?? null,
          actor_id: claim?.actorId ?? null,
          activity_id: claim?.activityId ?? null,
          sender_id: claim?.senderId ?? null,
          takes: e.takes != null,
        };
      }),
    );
    const params = [json, now, staleBefore, accountId, stream, accountId, stream, now];
    const row = await db.get<{ last: number; dropped: string | null }>(
      announce === undefined ? appendQuietly : appendAnnounced,
      announce === undefined ? params : [...params, announce, accountId, stream],
    );
    if (!row) return { last: 0, dropped: new Set(events.keys()) };
    const dropped = row.dropped === null ? NONE_DROPPED : new Set<number>(JSON.parse(row.dropped));
    return { last: Number(row.last), dropped };
  }
  // SQLite: BEGIN IMMEDIATE already serialises every writer; the counter keeps ids growing.
  return db.transaction(async (tx) => {
    let dropped = NONE_DROPPED;
    for (let i = 0; i < events.length; i++) {
      const takes = events[i]!.takes;
      if (!takes) continue;
      const { actorId, activityId, senderId } = takes.claim;
      const taken = await tx.get(takeClaimSqlite, [
        ...[actorId, activityId, senderId, now],
        takes.staleBefore,
      ]);
      if (taken) continue;
      if (dropped === NONE_DROPPED) dropped = new Set();
      (dropped as Set<number>).add(i);
    }
    const k = events.length - dropped.size;
    if (k === 0) return { last: 0, dropped };
    const last = Number((await tx.get<{ seq: number }>(bumpCounter, [accountId, stream, k]))!.seq);
    let seq = last - k;
    for (let i = 0; i < events.length; i++) {
      if (dropped.has(i)) continue;
      const e = events[i]!;
      await tx.run(
        `INSERT INTO events (account_id, stream, seq, data, created_at, kind, actors, hosts, upstream_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          accountId,
          stream,
          ++seq,
          e.json,
          now,
          e.kind ?? null,
          e.actors ?? null,
          e.hosts ?? null,
          e.upstreamId ?? null,
        ],
      );
    }
    const claims = events.flatMap((e) => (e.claim && !e.takes ? [e.claim] : []));
    for (let i = 0; i < claims.length; i += 300) {
      const chunk = claims.slice(i, i + 300);
      await tx.run(
        `UPDATE inbox_seen SET stored = 1 WHERE (actor_id, activity_id, sender_id) IN (VALUES ${chunk
          .map(() => "(?, ?, ?)")
          .join(", ")})`,
        chunk.flatMap((c) => [c.actorId, c.activityId, c.senderId]),
      );
    }
    return { last, dropped };
  });
}

/** Which of `ids` (upstream ids) are stored, as `accountId upstreamId` pairs (one space). */
export async function storedUpstreamIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.all<{ account_id: number | bigint; upstream_id: string }>(
    `SELECT account_id, upstream_id FROM events WHERE upstream_id IN (${ids.map(() => "?").join(", ")})`,
    [...ids],
  );
  return new Set(rows.map((row) => `${Number(row.account_id)} ${row.upstream_id}`));
}

// PostgreSQL: the events and their search copies in one statement, whose commit does not wait
// for a WAL flush (its own transaction's setting only). A prune lost with a crash of PostgreSQL
// deletes nothing anyone relies on, and the next one deletes it all again; meanwhile the event
// log waits for it before answering the appends that passed the mark.
const prunePostgres = `WITH gone AS (
    DELETE FROM events WHERE account_id = ? AND stream = ? AND seq <= ? RETURNING seq),
  copies AS (DELETE FROM event_search WHERE account_id = ? AND stream = ? AND seq <= ?)
  SELECT (SELECT COUNT(*) FROM gone) AS n, set_config('synchronous_commit', 'off', true) AS quick`;

/** Deletes the stream's events numbered `upTo` and below (on PostgreSQL their search copies too); how many. */
export async function pruneEvents(
  db: Db,
  accountId: number,
  stream: string,
  upTo: number,
): Promise<number> {
  if (db.dialect === "postgres") {
    const row = await db.get<{ n: number }>(prunePostgres, [
      ...[accountId, stream, upTo],
      ...[accountId, stream, upTo],
    ]);
    return Number(row?.n ?? 0);
  }
  const { changes } = await db.run(
    `DELETE FROM events WHERE account_id = ? AND stream = ? AND seq <= ?`,
    [accountId, stream, upTo],
  );
  return changes;
}

export async function readEventsAfter(
  db: Db,
  accountId: number,
  stream: string,
  afterSeq: number,
  limit: number,
): Promise<StoredEvent[]> {
  const rows = await db.all<EventRow>(
    `SELECT seq, data, created_at FROM events
     WHERE account_id = ? AND stream = ? AND seq > ? ORDER BY seq LIMIT ?`,
    [accountId, stream, afterSeq, limit],
  );
  return rows.map(toStoredEvent);
}

type EventRow = { seq: number | bigint; data: string; created_at: number | bigint };
const toStoredEvent = (row: EventRow): StoredEvent => ({
  seq: Number(row.seq),
  data: row.data,
  createdAt: Number(row.created_at),
});

/** What a history query of one stream asks for; every field but the first three is optional. */
export interface EventQuery {
  accountId: number;
  stream: string;
  limit: number;
  /** Only events numbered below this (newest first from there). */
  beforeSeq?: number;
  /** Only events numbered above this: the oldest `limit` of them, still answered newest first. */
  afterSeq?: number;
  seq?: number;
  /** Stored at or after / at or before, ms since the epoch. */
  since?: number;
  until?: number;
  /** Text anywhere in the event's JSON, any case. */
  text?: string;
  kind?: string;
  actor?: string;
  host?: string;
}

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One stream's events matching `query`, newest first, at most `limit`. */
export async function queryEvents(db: Db, query: EventQuery): Promise<StoredEvent[]> {
  const substring =
    query.text !== undefined || query.actor !== undefined || query.host !== undefined;
  if (db.dialect === "postgres" && substring) return querySearchedEvents(db, query);
  const { where, params } = conditions(db, query, "");
  return selectEvents(db, `events`, where, params, query);
}

/**
 * The WHERE conditions of `query` on events (`e` the prefix of its columns, e.g. "e."); with
 * `search`, the substring filters are asked of that prefix's columns instead (event_search's).
 */
function conditions(db: Db, query: EventQuery, e: string, search = e) {
  const where = [`${e}account_id = ?`, `${e}stream = ?`];
  const params: unknown[] = [query.accountId, query.stream];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (query.seq !== undefined) add(`${e}seq = ?`, query.seq);
  if (query.beforeSeq !== undefined) add(`${e}seq < ?`, query.beforeSeq);
  if (query.afterSeq !== undefined) add(`${e}seq > ?`, query.afterSeq);
  if (query.since !== undefined) add(`${e}created_at >= ?`, query.since);
  if (query.until !== undefined) add(`${e}created_at <= ?`, query.until);
  if (query.kind !== undefined) add(`${e}kind = ?`, query.kind);
  if (query.actor !== undefined)
    add(`${search}actors LIKE ? ESCAPE '\\'`, `% ${likeEscape(query.actor)} %`);
  if (query.host !== undefined)
    add(`${search}hosts LIKE ? ESCAPE '\\'`, `% ${likeEscape(query.host.toLowerCase())} %`);
  if (query.text !== undefined) {
    // Both fold ASCII letters only: SQLite's LIKE does no more, and PostgreSQL's ILIKE under the
    // "C" collation scans about 2.5 times as fast as under a locale's (measured here).
    const column =
      db.dialect === "postgres" ? `${search}data COLLATE "C" ILIKE` : `${search}data LIKE`;
    add(`${column} ? ESCAPE '\\'`, `%${likeEscape(query.text)}%`);
  }
  return { where, params };
}

async function selectEvents(
  db: Db,
  from: string,
  where: string[],
  params: unknown[],
  query: EventQuery,
  e = "",
): Promise<StoredEvent[]> {
  const oldestFirst = query.afterSeq !== undefined;
  const rows = await db.all<EventRow>(
    `SELECT ${e}seq, ${e}data, ${e}created_at FROM ${from} WHERE ${where.join(" AND ")}
     ORDER BY ${e}seq ${oldestFirst ? "ASC" : "DESC"} LIMIT ?`,
    [...params, query.limit],
    // Whether a text, actor or host filter is rare decides between its trigram index and the
    // newest-first walk (trigram-indexes.ts); a generic plan would pick one for every pattern.
    { planEachCall: true },
  );
  const events = rows.map(toStoredEvent);
  return oldestFirst ? events.reverse() : events;
}

/**
 * PostgreSQL's substring filters: the events copied into event_search (up to the stream's mark)
 * answer from its trigram indexes, joined back to events (so pruned ones are gone); the few above
 * the mark, appended since the last copy, are scanned. Together: every matching event, whether
 * copied yet or not, in the order and number a scan of events alone would give.
 */
async function querySearchedEvents(db: Db, query: EventQuery): Promise<StoredEvent[]> {
  const mark = await searchMark(db, query.accountId, query.stream);
  const oldestFirst = query.afterSeq !== undefined;
  const above = async (limit: number) => {
    const { where, params } = conditions(db, query, "");
    return selectEvents(db, `events`, [...where, `seq > ?`], [...params, mark], {
      ...query,
      limit,
    });
  };
  const copied = async (limit: number) => {
    if (mark === 0) return [];
    const { where, params } = conditions(db, query, "e.", "s.");
    return selectEvents(
      db,
      `events e JOIN event_search s
         ON s.account_id = e.account_id AND s.stream = e.stream AND s.seq = e.seq`,
      [...where, `s.account_id = ?`, `s.stream = ?`, `s.seq <= ?`],
      [...params, query.accountId, query.stream, mark],
      { ...query, limit },
      "e.",
    );
  };
  // Both lists are newest first; the events above the mark are all newer than the copied ones.
  if (oldestFirst) {
    const older = await copied(query.limit);
    if (older.length >= query.limit) return older;
    return [...(await above(query.limit - older.length)), ...older];
  }
  const newer = await above(query.limit);
  if (newer.length >= query.limit) return newer;
  return [...newer, ...(await copied(query.limit - newer.length))];
}

/**
 * A stream's events after the position (ms, streamRank, seq) in the order of time, then stream
 * (ranked by name), then seq: the oldest `limit` of them, oldest first (cattle_grid's history).
 */
export async function readEventsAfterPosition(
  db: Db,
  accountId: number,
  stream: string,
  position: { ms: number; stream: string; seq: number },
  limit: number,
): Promise<StoredEvent[]> {
  // For one stream the stream comparison is settled here: a later-named stream's events at the
  // same ms come after the position, an earlier-named one's do not, the same one's by seq.
  const params: unknown[] = [accountId, stream, position.ms];
  let after = `created_at > ?`;
  if (stream > position.stream) after = `created_at >= ?`;
  else if (stream === position.stream) {
    after = `(created_at > ? OR (created_at = ? AND seq > ?))`;
    params.push(position.ms, position.seq);
  }
  const rows = await db.all<EventRow>(
    `SELECT seq, data, created_at FROM events
     WHERE account_id = ? AND stream = ? AND ${after}
     ORDER BY created_at, seq LIMIT ?`,
    [...params, limit],
  );
  return rows.map(toStoredEvent);
}

/** The newest seq handed out for a stream (its counter), 0 before the first event. */
export async function lastEventSeq(db: Db, accountId: number, stream: string): Promise<number> {
  const row = await db.get<{ seq: number | bigint }>(
    `SELECT seq FROM event_streams WHERE account_id = ? AND stream = ?`,
    [accountId, stream],
  );
  return Number(row?.seq ?? 0);
}

/** Per minute since `since` (ms) and per stream, how many events the account's streams got. */
export async function countEventsPerMinute(
  db: Db,
  accountId: number,
  since: number,
): Promise<{ minute: number; stream: string; count: number }[]> {
  const rows = await db.all<{
    minute: number | bigint | string;
    stream: string;
    n: number | bigint | string;
  }>(
    `SELECT created_at / 60000 AS minute, stream, COUNT(*) AS n FROM events
     WHERE account_id = ? AND created_at >= ? GROUP BY created_at / 60000, stream`,
    [accountId, since],
  );
  return rows.map((r) => ({ minute: Number(r.minute), stream: r.stream, count: Number(r.n) }));
}
