import { importJwk } from "@fedify/fedify";
import type { Db } from "../db/db.ts";
import type { Signer } from "./signing.ts";

// Imported CryptoKeys of our own actors, cached: importing an RSA key costs far more than
// signing with it, and deliveries sign thousands of requests with the same few keys.

export interface LocalActorRow {
  id: string;
  account_id: number | null;
  base_url: string;
  auto_follow: number;
  deleted_at: number | null;
}

const signers = new Map<string, Promise<Signer | null>>();
const publicKeys = new Map<string, Promise<CryptoKey | null>>();

/** Our actor `id` (not deleted), or undefined. */
export async function findLocalActor(db: Db, id: string): Promise<LocalActorRow | undefined> {
  const row = await db.get<LocalActorRow>(
    `SELECT id, account_id, base_url, auto_follow, deleted_at FROM actors WHERE id = ?`,
    [id],
  );
  return row ? { ...row, account_id: row.account_id == null ? null : Number(row.account_id), auto_follow: Number(row.auto_follow) } : undefined;
}

/** The signer (RSA key, keyId `{actorId}#main-key`) of one of our actors, or null. */
export function loadSigner(db: Db, actorId: string): Promise<Signer | null> {
  let signer = signers.get(actorId);
  if (!signer) {
    signer = readKey(db, actorId, "rsa_private_jwk", "private").then((key) =>
      key ? { keyId: new URL(`${actorId}#main-key`), privateKey: key } : null,
    );
    signers.set(actorId, signer);
    signer.then((s) => s ?? signers.delete(actorId), () => signers.delete(actorId));
  }
  return signer;
}

/** The RSA public key of one of our actors, for verifying requests it signed. */
export function loadPublicKey(db: Db, actorId: string): Promise<CryptoKey | null> {
  let key = publicKeys.get(actorId);
  if (!key) {
    key = readKey(db, actorId, "rsa_public_jwk", "public");
    publicKeys.set(actorId, key);
    key.then((k) => k ?? publicKeys.delete(actorId), () => publicKeys.delete(actorId));
  }
  return key;
}

async function readKey(db: Db, actorId: string, column: string, type: "private" | "public") {
  const row = await db.get<Record<string, string>>(`SELECT ${column} FROM actors WHERE id = ?`, [actorId]);
  if (!row) return null;
  return await importJwk(JSON.parse(row[column]!), type);
}
