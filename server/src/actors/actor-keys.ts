import type { webcrypto } from "node:crypto";
import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import type { Db } from "../db/db.ts";

export type CryptoKeyPair = webcrypto.CryptoKeyPair;

export interface ActorKeys {
  /** RSASSA-PKCS1-v1_5 / SHA-256, 2048 bits: HTTP signatures, keyId `{actorId}#main-key`. */
  rsa: CryptoKeyPair;
  /** Ed25519: object integrity proofs, multikey `{actorId}#ed25519-key`. */
  ed25519: CryptoKeyPair;
}

export interface ActorKeyColumns {
  rsa_private_jwk: string;
  rsa_public_jwk: string;
  ed25519_private_jwk: string;
  ed25519_public_jwk: string;
}

/** Makes the two key pairs of a new actor, as the JWK columns of the actors table. */
export async function generateActorKeyColumns(): Promise<ActorKeyColumns> {
  const [rsa, ed25519] = await Promise.all([
    // Fedify's generateCryptoKeyPair makes 4096-bit RSA keys; 2048 bits is what the fediverse
    // uses and signs several times faster.
    crypto.subtle.generateKey(
      {
        name: "RSASSA-PKCS1-v1_5",
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: "SHA-256",
      },
      true,
      ["sign", "verify"],
    ),
    generateCryptoKeyPair("Ed25519"),
  ]);
  const json = async (key: webcrypto.CryptoKey) => JSON.stringify(await exportJwk(key));
  return {
    rsa_private_jwk: await json(rsa.privateKey),
    rsa_public_jwk: await json(rsa.publicKey),
    ed25519_private_jwk: await json(ed25519.privateKey),
    ed25519_public_jwk: await json(ed25519.publicKey),
  };
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
  const row = await db.get<ActorKeyColumns>(
    `SELECT rsa_private_jwk, rsa_public_jwk, ed25519_private_jwk, ed25519_public_jwk FROM actors WHERE id = ?`,
    [actorId],
  );
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
