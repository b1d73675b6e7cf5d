import type { Db } from "../db/db.ts";

// Which activity ids each of our actors has taken from each sender: the inbox takes an activity
// once per receiving actor, however often (and however signed) it arrives. The sender is part of
// the key so that nobody can claim another server's id first and have the real one dropped.
// A row is a claim until its event is stored: a claim left by a process that died (kill -9
// between claiming and storing) passes to the next copy once stale, so nothing accepted is lost.

export type SeenKey = { actorId: string; activityId: string; senderId: string };

/** claimed: store it now; stored: a replay, add nothing; busy: another copy is storing it. */
export type Claim = "claimed" | "stored" | "busy";

/**
 * A claim of `key` that commits before its event is stored: its row inserted, or taken over from
 * a process that died. Most claims are instead taken by their event's own append, as stored
 * (db/events.store.ts, AppendedEvent.takes; docs/adr/0020-inbox-claims-in-the-append.md); this
 * is for a copy that found its claim held, and for an actor with no account (no event).
 */
export async function claimSeen(
  db: Db,
  key: SeenKey,
  now: number,
  staleBefore: number,
): Promise<Claim> {
  const params = [key.actorId, key.activityId, key.senderId];
  const inserted = await db.run(
    `INSERT INTO inbox_seen (actor_id, activity_id, sender_id, received_at, stored)
     VALUES (?, ?, ?, ?, 0) ON CONFLICT DO NOTHING`,
    [...params, now],
  );
  if (inserted.changes > 0) return "claimed";
  const takenOver = await db.run(
    `UPDATE inbox_seen SET received_at = ?
     WHERE actor_id = ? AND activity_id = ? AND sender_id = ? AND stored = 0 AND received_at < ?`,
    [now, ...params, staleBefore],
  );
  if (takenOver.changes > 0) return "claimed";
  const row = await db.get<{ stored: number | bigint }>(
    `SELECT stored FROM inbox_seen WHERE actor_id = ? AND activity_id = ? AND sender_id = ?`,
    params,
  );
  // Swept between the two statements: nobody holds it now.
  if (!row) return claimSeen(db, key, now, staleBefore);
  return Number(row.stored) === 1 ? "stored" : "busy";
}

// On PostgreSQL a group's keys go as one JSON array, so that the statement's text is the same
// for any number of them: postgres.js prepares each new text on each pooled connection (a
// Parse/Describe round trip before the first run), and with a VALUES row per key every group
// size was a text of its own. SQLite prepares in-process and caches by text: rows stay VALUES.
// The claims commit without waiting for their WAL flush (synchronous_commit off for this
// statement's own transaction only; docs/adr/0017-claims-flushed-by-their-append.md): the append
// that stores a claimed activity commits after the claim did and waits for its own flush, which
// puts the claim's commit on disk too, before any 202. A claim lost with a crash of PostgreSQL
// before that had stored nothing and answered nobody.
const insertClaimsPostgres = `INSERT INTO inbox_seen (actor_id, activity_id, sender_id, received_at, stored)
  SELECT d.e->>0, d.e->>1, d.e->>2, ?, 0
  FROM json_array_elements((?::text)::json) AS d(e),
    (SELECT set_config('synchronous_commit', 'off', true)) AS flushed_by_the_append
  ON CONFLICT DO NOTHING
  RETURNING actor_id, activity_id, sender_id`;
const markStoredPostgres = `UPDATE inbox_seen SET stored = 1
  WHERE (actor_id, activity_id, sender_id) IN (
    SELECT d.e->>0, d.e->>1, d.e->>2 FROM json_array_elements((?::text)::json) AS d(e))`;
const keysJson = (keys: readonly SeenKey[]) =>
  JSON.stringify(keys.map((k) => [k.actorId, k.activityId, k.senderId]));

/**
 * The first step of claimSeen for many keys in one statement per 300: for each key, whether
 * this call inserted its claim. A key given twice is inserted for its first place only.
 */
export async function insertClaims(
  db: Db,
  keys: readonly SeenKey[],
  now: number,
): Promise<boolean[]> {
  const text = (k: SeenKey) => JSON.stringify([k.actorId, k.activityId, k.senderId]);
  const inserted = new Set<string>();
  for (let i = 0; i < keys.length; i += 300) {
    const chunk = keys.slice(i, i + 300);
    type Row = { actor_id: string; activity_id: string; sender_id: string };
    const rows =
      db.dialect === "postgres"
        ? await db.all<Row>(insertClaimsPostgres, [now, keysJson(chunk)])
        : await db.all<Row>(
            `INSERT INTO inbox_seen (actor_id, activity_id, sender_id, received_at, stored)
             VALUES ${chunk.map(() => "(?, ?, ?, ?, 0)").join(", ")} ON CONFLICT DO NOTHING
             RETURNING actor_id, activity_id, sender_id`,
            chunk.flatMap((k) => [k.actorId, k.activityId, k.senderId, now]),
          );
    for (const r of rows) inserted.add(JSON.stringify([r.actor_id, r.activity_id, r.sender_id]));
  }
  return keys.map((k) => inserted.delete(text(k)));
}

/** The claims' events are stored: from now on a copy is a replay. One statement per 300 keys. */
export async function markStored(db: Db, keys: readonly SeenKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 300) {
    const chunk = keys.slice(i, i + 300);
    if (db.dialect === "postgres") await db.run(markStoredPostgres, [keysJson(chunk)]);
    else
      await db.run(
        `UPDATE inbox_seen SET stored = 1 WHERE (actor_id, activity_id, sender_id) IN (VALUES ${chunk
          .map(() => "(?, ?, ?)")
          .join(", ")})`,
        chunk.flatMap((k) => [k.actorId, k.activityId, k.senderId]),
      );
  }
}

/** A claim given up (its event could not be stored): the next copy may take it at once. */
export async function releaseClaim(db: Db, key: SeenKey): Promise<void> {
  await db.run(
    `DELETE FROM inbox_seen WHERE actor_id = ? AND activity_id = ? AND sender_id = ? AND stored = 0`,
    [key.actorId, key.activityId, key.senderId],
  );
}

/** Forgets what arrived before `before` (ms); returns how many rows went. */
export async function sweepSeen(db: Db, before: number): Promise<number> {
  return (await db.run(`DELETE FROM inbox_seen WHERE received_at < ?`, [before])).changes;
}
