import type { webcrypto } from "node:crypto";
import {
  type CryptoKeyPair,
  ensureInstanceActorRow,
  findActor,
  loadActorKeys,
  type ActorRow,
} from "../actors/index.ts";
import type { Db } from "../db/db.ts";
import type { Signer } from "./signing.ts";

// Our actors' keys as federation uses them, on top of the actors module's per-process key cache.

/** One of our actors (deleted ones included, flagged), or undefined. */
export async function findLocalActor(db: Db, id: string): Promise<ActorRow | undefined> {
  return findActor(db, id);
}

// One Signer per loaded key pair: a delivery asks for it each time, and its keyId is a URL.
const signers = new WeakMap<CryptoKeyPair, Signer>();

/** The signer (RSA key, keyId `{actorId}#main-key`) of one of our actors, or null. */
export async function loadSigner(db: Db, actorId: string): Promise<Signer | null> {
  const keys = await loadActorKeys(db, actorId);
  if (!keys) return null;
  let signer = signers.get(keys.rsa);
  if (!signer) {
    signer = { keyId: new URL(`${actorId}#main-key`), privateKey: keys.rsa.privateKey };
    signers.set(keys.rsa, signer);
  }
  return signer;
}

/** The RSA public key of one of our actors, for verifying requests it signed. */
export async function loadPublicKey(db: Db, actorId: string): Promise<webcrypto.CryptoKey | null> {
  return (await loadActorKeys(db, actorId))?.rsa.publicKey ?? null;
}

const instanceSigners = new WeakMap<Db, Map<string, Promise<Signer>>>();

/**
 * The signer of `baseUrl`'s instance actor (`{baseUrl}/actor/instance`, an Application served
 * with its key to anyone): what signs the GETs the server makes on its own account, such as the
 * key fetch that verifies an incoming activity. Created on first use, then kept per process.
 */
export function loadInstanceSigner(db: Db, baseUrl: string): Promise<Signer> {
  let byUrl = instanceSigners.get(db);
  if (!byUrl) instanceSigners.set(db, (byUrl = new Map()));
  let signer = byUrl.get(baseUrl);
  if (!signer) {
    signer = ensureInstanceActorRow(db, baseUrl).then(async (actor) => {
      const loaded = await loadSigner(db, actor.id);
      if (!loaded) throw new Error(`instance actor ${actor.id} has no keys`);
      return loaded;
    });
    // A failure (the database away) is not remembered: the next fetch tries again.
    signer.catch(() => byUrl.delete(baseUrl));
    byUrl.set(baseUrl, signer);
  }
  return signer;
}
