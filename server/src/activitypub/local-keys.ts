import type { webcrypto } from "node:crypto";
import { findActor, loadActorKeys, type ActorRow } from "../actors/index.ts";
import type { Db } from "../db/db.ts";
import type { Signer } from "./signing.ts";

// Our actors' keys as federation uses them, on top of the actors module's per-process key cache.

/** One of our actors (deleted ones included, flagged), or undefined. */
export async function findLocalActor(db: Db, id: string): Promise<ActorRow | undefined> {
  return findActor(db, id);
}

/** The signer (RSA key, keyId `{actorId}#main-key`) of one of our actors, or null. */
export async function loadSigner(db: Db, actorId: string): Promise<Signer | null> {
  const keys = await loadActorKeys(db, actorId);
  return keys ? { keyId: new URL(`${actorId}#main-key`), privateKey: keys.rsa.privateKey } : null;
}

/** The RSA public key of one of our actors, for verifying requests it signed. */
export async function loadPublicKey(db: Db, actorId: string): Promise<webcrypto.CryptoKey | null> {
  return (await loadActorKeys(db, actorId))?.rsa.publicKey ?? null;
}
