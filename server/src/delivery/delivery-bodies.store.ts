import type { Db } from "../db/db.ts";

// The delivery_bodies table: the exact bytes of an activity being delivered and their Digest,
// stored once for all its deliveries (each names it by body_id). Rows never change; a body goes
// once no delivery names it any more (swept with the deliveries).

export interface StoredBody {
  body: string;
  digest: string;
}

export async function insertBody(tx: Db, body: string, digest: string): Promise<number> {
  const row = await tx.get<{ id: number }>(
    `INSERT INTO delivery_bodies (body, digest, created_at) VALUES (?, ?, ?) RETURNING id`,
    [body, digest, Date.now()],
  );
  return Number(row!.id);
}

export async function findBody(db: Db, id: number): Promise<StoredBody | undefined> {
  return db.get<StoredBody>(`SELECT body, digest FROM delivery_bodies WHERE id = ?`, [id]);
}

/** Bodies older than `before` that no delivery names any more; how many went. */
export async function deleteUnusedBodies(db: Db, before: number): Promise<number> {
  const result = await db.run(
    `DELETE FROM delivery_bodies WHERE created_at < ?
     AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.body_id = delivery_bodies.id)`,
    [before],
  );
  return result.changes;
}
