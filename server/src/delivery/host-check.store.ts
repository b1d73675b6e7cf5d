import type { Db } from "../db/db.ts";

// An actor of a remote host that the account knows (a follower, one it follows, or one whose
// activity one of its actors took), for the WebFinger and signed-GET steps of a host check.

export async function findKnownActorOn(
  db: Db,
  accountId: number,
  host: string,
): Promise<string | undefined> {
  const pattern = `%://${host}/%`;
  const queries = [
    `SELECT f.follower_id AS id FROM followers f JOIN actors a ON a.id = f.actor_id
     WHERE a.account_id = ? AND f.follower_id LIKE ? LIMIT 1`,
    `SELECT f.target_id AS id FROM following f JOIN actors a ON a.id = f.actor_id
     WHERE a.account_id = ? AND f.target_id LIKE ? LIMIT 1`,
    `SELECT s.sender_id AS id FROM inbox_seen s JOIN actors a ON a.id = s.actor_id
     WHERE a.account_id = ? AND s.sender_id LIKE ? ORDER BY s.received_at DESC LIMIT 1`,
  ];
  for (const sql of queries) {
    const row = await db.get<{ id: string }>(sql, [accountId, pattern]);
    if (row && URL.canParse(row.id) && new URL(row.id).host === host) return row.id;
  }
  return undefined;
}
