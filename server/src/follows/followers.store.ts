import type { Db } from "../db/db.ts";

// The followers table: who follows our actors, and where to deliver to them.

export interface FollowerRow {
  follower_id: string;
  inbox: string;
  shared_inbox: string | null;
}

export async function addFollower(
  db: Db,
  actorId: string,
  follower: string,
  inbox: string,
  sharedInbox: string | null,
  followId: string | null,
): Promise<void> {
  await db.run(
    `INSERT INTO followers (actor_id, follower_id, inbox, shared_inbox, follow_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (actor_id, follower_id) DO UPDATE SET inbox = excluded.inbox, shared_inbox = excluded.shared_inbox, follow_id = excluded.follow_id`,
    [actorId, follower, inbox, sharedInbox, followId, Date.now()],
  );
}

export async function removeFollower(db: Db, actorId: string, follower: string): Promise<void> {
  await db.run(`DELETE FROM followers WHERE actor_id = ? AND follower_id = ?`, [actorId, follower]);
}

/** Undo of a Follow: the follow named by our actor's id or by the Follow's id. */
export async function removeFollowByFollower(
  db: Db,
  follower: string,
  actorId: string,
  followId: string,
): Promise<void> {
  await db.run(`DELETE FROM followers WHERE follower_id = ? AND (actor_id = ? OR follow_id = ?)`, [
    follower,
    actorId,
    followId,
  ]);
}

/** A remote actor is gone: it follows no one here. */
export async function removeFollowerEverywhere(db: Db, follower: string): Promise<void> {
  await db.run(`DELETE FROM followers WHERE follower_id = ?`, [follower]);
}

export async function isFollower(db: Db, actorId: string, follower: string): Promise<boolean> {
  const row = await db.get(
    `SELECT 1 AS yes FROM followers WHERE actor_id = ? AND follower_id = ?`,
    [actorId, follower],
  );
  return row !== undefined;
}

export async function listFollowerInboxes(
  db: Db,
  actorId: string,
): Promise<{ inbox: string; shared_inbox: string | null }[]> {
  return db.all(`SELECT inbox, shared_inbox FROM followers WHERE actor_id = ?`, [actorId]);
}

export async function pageFollowers(
  db: Db,
  actorId: string,
  limit: number,
  offset: number,
): Promise<FollowerRow[]> {
  return db.all<FollowerRow>(
    `SELECT follower_id, inbox, shared_inbox FROM followers WHERE actor_id = ? ORDER BY created_at, follower_id LIMIT ? OFFSET ?`,
    [actorId, limit, offset],
  );
}

export async function countFollowers(db: Db, actorId: string): Promise<number> {
  const row = await db.get<{ n: number | bigint }>(
    `SELECT COUNT(*) AS n FROM followers WHERE actor_id = ?`,
    [actorId],
  );
  return Number(row?.n ?? 0);
}
