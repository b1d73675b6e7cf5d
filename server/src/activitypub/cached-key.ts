import { KeyObject, type webcrypto } from "node:crypto";
import type { KeyCache } from "@fedify/fedify";
import { CryptographicKey } from "@fedify/fedify/vocab";

// The key a signature names, as both quick checks (verify-draft.ts, verify-rfc9421.ts) use it:
// from our key cache, with its owner, as a node:crypto KeyObject made once per key.

const keyObjects = new WeakMap<webcrypto.CryptoKey, KeyObject>();

export interface CachedKey {
  keyId: string;
  owner: string;
  /** The WebCrypto key, for a check of its algorithm. */
  publicKey: webcrypto.CryptoKey;
  keyObject: KeyObject;
}

/** The cached key of `keyId` with an owner, or undefined (not a URL, unknown, ownerless). */
export async function findCachedKey(
  keyCache: KeyCache,
  keyId: string,
): Promise<CachedKey | undefined> {
  let keyUrl: URL;
  try {
    keyUrl = new URL(keyId);
  } catch {
    return undefined;
  }
  const key = await keyCache.get(keyUrl);
  if (!(key instanceof CryptographicKey)) return undefined;
  const owner = key.ownerId?.href;
  if (!key.publicKey || !owner) return undefined;
  let keyObject = keyObjects.get(key.publicKey);
  if (!keyObject) {
    keyObject = KeyObject.from(key.publicKey);
    keyObjects.set(key.publicKey, keyObject);
  }
  return { keyId: keyUrl.href, owner, publicKey: key.publicKey, keyObject };
}
