import type { Db } from "../db/db.ts";

// Which activity ids each of our actors has taken from each sender: the inbox takes an activity
// once per receiving actor, however often (and however signed) it arrives. The sender is part of
// the key so that nobody can claim another server's id first and have the real one dropped.

/** Records the activity for `actorId`; false when it was recorded before (a replay). */
export async function markSeen(
  db: Db,
  entry: { actorId: string; activityId: string; senderId: string; at: number },
): Promise<boolean> {
  const { changes } = await db.run(
    `INSERT INTO inbox_seen (actor_id, activity_id, sender_id, received_at) VALUES (?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
    [entry.actorId, entry.activityId, entry.senderId, entry.at],
  );
  return changes > 0;
}

/** Forgets what arrived before `before` (ms); returns how many rows went. */
export async function sweepSeen(db: Db, before: number): Promise<number> {
  return (await db.run(`DELETE FROM inbox_seen WHERE received_at < ?`, [before])).changes;
}
