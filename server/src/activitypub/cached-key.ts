import { KeyObject, type webcrypto } from "node:crypto";
import type { KeyCache } from "@fedify/fedify";
import { CryptographicKey } from "@fedify/fedify/vocab";

// The key a signature names, as both quick checks (verify-draft.ts, verify-rfc9421.ts) use it:
// from our key cache, with its owner, as a node:crypto KeyObject made once per key.

export interface CachedKey {
  keyId: string;
  owner: string;
  /** The WebCrypto key, for a check of its algorithm. */
  publicKey: webcrypto.CryptoKey;
  keyObject: KeyObject;
  /** RSASSA-PKCS1-v1_5 with SHA-256 (WebCrypto's `algorithm` getter makes a new object per read). */
  rsaSha256: boolean;
}

// What a key gives the checks is worked out once per key the cache holds, and key ids are parsed
// once each (a URL, and the key's fields, per inbox request were 4% of the inbox's CPU).
const cachedKeys = new WeakMap<CryptographicKey, CachedKey | null>();
const keyUrls = new Map<string, URL | null>();
const MAX_KEY_URLS = 10_000;

function keyUrlOf(keyId: string): URL | null {
  let url = keyUrls.get(keyId);
  if (url === undefined) {
    url = URL.canParse(keyId) ? new URL(keyId) : null;
    if (keyUrls.size >= MAX_KEY_URLS) keyUrls.delete(keyUrls.keys().next().value!);
    keyUrls.set(keyId, url);
  }
  return url;
}

/** The cached key of `keyId` with an owner, or undefined (not a URL, unknown, ownerless). */
export async function findCachedKey(
  keyCache: KeyCache,
  keyId: string,
): Promise<CachedKey | undefined> {
  const keyUrl = keyUrlOf(keyId);
  if (keyUrl === null) return undefined;
  // Shared, parsed once: nothing that is handed a key id changes it.
  const key = await keyCache.get(keyUrl);
  if (!(key instanceof CryptographicKey)) return undefined;
  let cached = cachedKeys.get(key);
  if (cached === undefined) {
    cached = describe(key, keyUrl.href);
    cachedKeys.set(key, cached);
  }
  if (cached === null) return undefined;
  return cached.keyId === keyUrl.href ? cached : { ...cached, keyId: keyUrl.href };
}

function describe(key: CryptographicKey, keyId: string): CachedKey | null {
  const owner = key.ownerId?.href;
  if (!key.publicKey || !owner) return null;
  const algorithm = key.publicKey.algorithm as webcrypto.RsaHashedKeyAlgorithm;
  return {
    keyId,
    owner,
    publicKey: key.publicKey,
    keyObject: KeyObject.from(key.publicKey),
    rsaSha256: algorithm.name === "RSASSA-PKCS1-v1_5" && algorithm.hash?.name === "SHA-256",
  };
}
