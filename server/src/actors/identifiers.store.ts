import type { Db } from "../db/db.ts";

// The identifiers table: acct: URIs and other identifiers of our actors, one of them primary.

export interface IdentifierRow {
  identifier: string;
  actorId: string;
  primary: boolean;
}

export async function listIdentifiers(db: Db, actorId: string): Promise<IdentifierRow[]> {
  const rows = await db.all<{ identifier: string; actor_id: string; is_primary: number | bigint }>(
    `SELECT identifier, actor_id, is_primary FROM identifiers WHERE actor_id = ? ORDER BY is_primary DESC, created_at, identifier`,
    [actorId],
  );
  return rows.map((r) => ({
    identifier: r.identifier,
    actorId: r.actor_id,
    primary: Number(r.is_primary) === 1,
  }));
}

/** The actor an identifier such as `acct:alice@example.com` names, if it is ours. */
export async function findActorIdByIdentifier(
  db: Db,
  identifier: string,
): Promise<string | undefined> {
  const row = await db.get<{ actor_id: string }>(
    `SELECT actor_id FROM identifiers WHERE identifier = ?`,
    [identifier],
  );
  return row?.actor_id;
}

/** Adds an identifier (a duplicate throws UniqueViolation); primary clears the others first. */
export async function insertIdentifier(
  db: Db,
  identifier: string,
  actorId: string,
  primary: boolean,
): Promise<void> {
  if (primary) await clearPrimary(db, actorId);
  await db.run(
    `INSERT INTO identifiers (identifier, actor_id, is_primary, created_at) VALUES (?, ?, ?, ?)`,
    [identifier, actorId, primary ? 1 : 0, Date.now()],
  );
}

/** Sets whether an identifier of the actor is primary; false when the actor has no such identifier. */
export async function setPrimaryIdentifier(
  db: Db,
  identifier: string,
  actorId: string,
  primary: boolean,
): Promise<boolean> {
  const owned = await db.get(
    `SELECT 1 AS yes FROM identifiers WHERE identifier = ? AND actor_id = ?`,
    [identifier, actorId],
  );
  if (!owned) return false;
  if (primary) await clearPrimary(db, actorId);
  await db.run(`UPDATE identifiers SET is_primary = ? WHERE identifier = ?`, [
    primary ? 1 : 0,
    identifier,
  ]);
  return true;
}

/** false when the actor has no such identifier. */
export async function removeIdentifier(
  db: Db,
  identifier: string,
  actorId: string,
): Promise<boolean> {
  const { changes } = await db.run(
    `DELETE FROM identifiers WHERE identifier = ? AND actor_id = ?`,
    [identifier, actorId],
  );
  return changes > 0;
}

async function clearPrimary(db: Db, actorId: string): Promise<void> {
  await db.run(`UPDATE identifiers SET is_primary = 0 WHERE actor_id = ?`, [actorId]);
}
