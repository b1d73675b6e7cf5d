import type { Db } from "../db/db.ts";

// The following table: whom our actors follow (accepted = 1 once the Accept arrived).

/** A Follow our actor sent: pending until accepted. */
export async function addFollowing(
  db: Db,
  actorId: string,
  target: string,
  followId: string | null,
): Promise<void> {
  await db.run(
    `INSERT INTO following (actor_id, target_id, follow_id, accepted, created_at) VALUES (?, ?, ?, 0, ?)
     ON CONFLICT (actor_id, target_id) DO UPDATE SET follow_id = excluded.follow_id`,
    [actorId, target, followId, Date.now()],
  );
}

/** Our actor's Undo of its Follow, named by target or by the Follow's id. */
export async function removeFollowingOf(
  db: Db,
  actorId: string,
  target: string,
  followId: string,
): Promise<void> {
  await db.run(`DELETE FROM following WHERE actor_id = ? AND (target_id = ? OR follow_id = ?)`, [
    actorId,
    target,
    followId,
  ]);
}

/** The target's Accept (accepted) or Reject (removed) of a Follow by our actor or by its id. */
export async function answerFollowing(
  db: Db,
  target: string,
  actorId: string,
  followId: string,
  accepted: boolean,
): Promise<void> {
  const where = `target_id = ? AND (actor_id = ? OR follow_id = ?)`;
  const params = [target, actorId, followId];
  if (accepted) await db.run(`UPDATE following SET accepted = 1 WHERE ${where}`, params);
  else await db.run(`DELETE FROM following WHERE ${where}`, params);
}

/** A remote actor is gone: no one here follows it. */
export async function removeFollowingTarget(db: Db, target: string): Promise<void> {
  await db.run(`DELETE FROM following WHERE target_id = ?`, [target]);
}

/** Our live actors whose Follow of `target` was accepted. */
export async function listLiveFollowersOf(db: Db, target: string): Promise<string[]> {
  const rows = await db.all<{ actor_id: string }>(
    `SELECT f.actor_id FROM following f JOIN actors a ON a.id = f.actor_id
     WHERE f.target_id = ? AND f.accepted = 1 AND a.deleted_at IS NULL`,
    [target],
  );
  return rows.map((row) => row.actor_id);
}

export async function pageFollowing(
  db: Db,
  actorId: string,
  limit: number,
  offset: number,
): Promise<string[]> {
  const rows = await db.all<{ target_id: string }>(
    `SELECT target_id FROM following WHERE actor_id = ? AND accepted = 1 ORDER BY created_at, target_id LIMIT ? OFFSET ?`,
    [actorId, limit, offset],
  );
  return rows.map((row) => row.target_id);
}

export async function countFollowing(db: Db, actorId: string): Promise<number> {
  const row = await db.get<{ n: number | bigint }>(
    `SELECT COUNT(*) AS n FROM following WHERE actor_id = ? AND accepted = 1`,
    [actorId],
  );
  return Number(row?.n ?? 0);
}
