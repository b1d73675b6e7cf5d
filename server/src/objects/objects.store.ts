import type { Db } from "../db/db.ts";

// The objects table: what our actors published (objects and activities), by id.

export interface StoredObjectRow {
  data: unknown;
  actorId: string;
  deleted: boolean;
}

export async function insertObject(
  db: Db,
  id: unknown,
  actorId: string,
  data: Record<string, unknown>,
): Promise<void> {
  await db.run(`INSERT INTO objects (id, actor_id, data, created_at) VALUES (?, ?, ?, ?)`, [
    id,
    actorId,
    JSON.stringify(data),
    Date.now(),
  ]);
}

export async function findObject(db: Db, id: string): Promise<StoredObjectRow | undefined> {
  const row = await db.get<{ data: string; actor_id: string; deleted_at: number | null }>(
    `SELECT data, actor_id, deleted_at FROM objects WHERE id = ?`,
    [id],
  );
  if (!row) return undefined;
  return { data: JSON.parse(row.data), actorId: row.actor_id, deleted: row.deleted_at != null };
}

/** An actor's live objects, newest first, as stored JSON. */
export async function pageActorObjects(
  db: Db,
  actorId: string,
  limit: number,
  offset: number,
): Promise<Record<string, unknown>[]> {
  const rows = await db.all<{ data: string }>(
    `SELECT data FROM objects WHERE actor_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
    [actorId, limit, offset],
  );
  return rows.map((row) => JSON.parse(row.data) as Record<string, unknown>);
}

export async function countActorObjects(db: Db, actorId: string): Promise<number> {
  const row = await db.get<{ n: number | bigint }>(
    `SELECT COUNT(*) AS n FROM objects WHERE actor_id = ? AND deleted_at IS NULL`,
    [actorId],
  );
  return Number(row?.n ?? 0);
}

export async function countLiveObjects(db: Db): Promise<number> {
  const row = await db.get<{ n: number | bigint }>(
    `SELECT COUNT(*) AS n FROM objects WHERE deleted_at IS NULL`,
  );
  return Number(row?.n ?? 0);
}
