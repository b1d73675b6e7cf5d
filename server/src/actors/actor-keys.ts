import type { webcrypto } from "node:crypto";
import { importJwk } from "@fedify/fedify";
import type { Db } from "../db/db.ts";
import { findActorKeyColumns } from "./actors.store.ts";

export type CryptoKeyPair = webcrypto.CryptoKeyPair;

export interface ActorKeys {
  /** RSASSA-PKCS1-v1_5 / SHA-256, 2048 bits: HTTP signatures, keyId `{actorId}#main-key`. */
  rsa: CryptoKeyPair;
  /** Ed25519: object integrity proofs, multikey `{actorId}#ed25519-key`. */
  ed25519: CryptoKeyPair;
}

// Importing an RSA key costs far more than using it; keys never change once made, so each
// actor's are imported once per process. A failed or missing load is not cached.
const cache = new Map<string, Promise<ActorKeys | null>>();

/** The imported key pairs of one of our actors, or null when the actor is unknown. */
export function loadActorKeys(db: Db, actorId: string): Promise<ActorKeys | null> {
  let keys = cache.get(actorId);
  if (!keys) {
    keys = importActorKeys(db, actorId);
    cache.set(actorId, keys);
    keys.then(
      (k) => k ?? cache.delete(actorId),
      () => cache.delete(actorId),
    );
  }
  return keys;
}

async function importActorKeys(db: Db, actorId: string): Promise<ActorKeys | null> {
  const row = await findActorKeyColumns(db, actorId);
  if (!row) return null;
  const load = (jwk: string, type: "private" | "public") => importJwk(JSON.parse(jwk), type);
  const [rsaPrivate, rsaPublic, edPrivate, edPublic] = await Promise.all([
    load(row.rsa_private_jwk, "private"),
    load(row.rsa_public_jwk, "public"),
    load(row.ed25519_private_jwk, "private"),
    load(row.ed25519_public_jwk, "public"),
  ]);
  return {
    rsa: { privateKey: rsaPrivate, publicKey: rsaPublic },
    ed25519: { privateKey: edPrivate, publicKey: edPublic },
  };
}
