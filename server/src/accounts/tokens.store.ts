import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/db.ts";
import { findAccountById, type Account } from "./accounts.store.ts";

// Bearer tokens: 256 random bits, handed out once; only their SHA-256 is stored, so a copy of the
// database does not let anyone in. A fast hash suffices because the token itself is random.

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function issueToken(db: Db, accountId: number, ttlMs: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await db.run(
    `INSERT INTO tokens (hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
    [hashToken(token), accountId, now, now + ttlMs],
  );
  return token;
}

export type TokenCheck = { ok: true; account: Account } | { ok: false; reason: string };

export async function checkToken(db: Db, token: string): Promise<TokenCheck> {
  const row = await db.get<{ account_id: number | bigint; expires_at: number | bigint }>(
    `SELECT account_id, expires_at FROM tokens WHERE hash = ?`,
    [hashToken(token)],
  );
  if (!row) return { ok: false, reason: "Invalid or revoked token; sign in again" };
  if (Number(row.expires_at) <= Date.now())
    return { ok: false, reason: "Token expired; sign in again" };
  const account = await findAccountById(db, Number(row.account_id));
  if (!account) return { ok: false, reason: "Account no longer exists" };
  return { ok: true, account };
}

/** Ends one token (sign-out); true when it existed. */
export async function revokeToken(db: Db, token: string): Promise<boolean> {
  return (await db.run(`DELETE FROM tokens WHERE hash = ?`, [hashToken(token)])).changes > 0;
}

/**
 * Revokes every token of an account: how many there were, and the account's id (for the
 * announcement that ends its streams), or null for an unknown name.
 */
export async function revokeTokens(
  db: Db,
  name: string,
): Promise<{ accountId: number; revoked: number } | null> {
  const row = await db.get<{ id: number | bigint }>(`SELECT id FROM accounts WHERE name = ?`, [
    name,
  ]);
  if (!row) return null;
  const { changes } = await db.run(`DELETE FROM tokens WHERE account_id = ?`, [row.id]);
  return { accountId: Number(row.id), revoked: changes };
}

/** Which of these tokens (by their stored hash) are still live at `now`. */
export async function liveTokenHashes(db: Db, hashes: string[], now: number): Promise<Set<string>> {
  const live = new Set<string>();
  for (let i = 0; i < hashes.length; i += 500) {
    const chunk = hashes.slice(i, i + 500);
    const rows = await db.all<{ hash: string }>(
      `SELECT hash FROM tokens WHERE expires_at > ? AND hash IN (${chunk.map(() => "?").join(", ")})`,
      [now, ...chunk],
    );
    for (const row of rows) live.add(row.hash);
  }
  return live;
}

/** Deletes up to `limit` tokens expired by `now`; returns how many. */
export async function deleteExpiredTokens(db: Db, now: number, limit: number): Promise<number> {
  const { changes } = await db.run(
    `DELETE FROM tokens WHERE hash IN (SELECT hash FROM tokens WHERE expires_at <= ? LIMIT ?)`,
    [now, limit],
  );
  return changes;
}
