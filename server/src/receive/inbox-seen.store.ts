import type { Db } from "../db/db.ts";

// Which activity ids each of our actors has taken from each sender: the inbox takes an activity
// once per receiving actor, however often (and however signed) it arrives. The sender is part of
// the key so that nobody can claim another server's id first and have the real one dropped.
// A row is a claim until its event is stored: a claim left by a process that died (kill -9
// between claiming and storing) passes to the next copy once stale, so nothing accepted is lost.

export type SeenKey = { actorId: string; activityId: string; senderId: string };

/** claimed: store it now; stored: a replay, add nothing; busy: another copy is storing it. */
export type Claim = "claimed" | "stored" | "busy";

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

/** The claim's event is stored: from now on a copy is a replay. */
export async function markStored(db: Db, key: SeenKey): Promise<void> {
  await db.run(
    `UPDATE inbox_seen SET stored = 1 WHERE actor_id = ? AND activity_id = ? AND sender_id = ?`,
    [key.actorId, key.activityId, key.senderId],
  );
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
