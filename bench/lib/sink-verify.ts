// Optional signature verification for the sink (--verify-sink): Fedify's verifyRequest(), which
// knows both draft-cavage and RFC 9421, with sender keys fetched once over loopback and cached.
// Off by default: it costs the load generator's process CPU that the server under test shares.

import { verifyRequest, type KeyCache } from "@fedify/fedify";
import type { CryptographicKey, Multikey } from "@fedify/fedify/vocab";

type Key = CryptographicKey | Multikey | null;

export function createSinkVerifier(sinkUrl: string) {
  const keys = new Map<string, Key>();
  const keyCache: KeyCache = {
    get: async (keyId) => keys.get(keyId.href),
    set: async (keyId, key) => void keys.set(keyId.href, key),
  };
  // Plain loopback fetches: Fedify's default loader refuses private addresses.
  const documentLoader = async (url: string) => {
    const response = await fetch(url, { headers: { Accept: "application/activity+json" } });
    if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
    return { contextUrl: null, documentUrl: response.url, document: await response.json() };
  };
  /** True when the POST carries a signature Fedify verifies against the sender's public key. */
  return async (
    method: string,
    target: string,
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<boolean> => {
    const request = new Request(new URL(target, sinkUrl), {
      method,
      headers,
      body: new Uint8Array(body),
    });
    const key = await verifyRequest(request, { documentLoader, keyCache }).catch(() => null);
    return key !== null;
  };
}
