import { verifyRequestDetailed, type DocumentLoader, type KeyCache } from "@fedify/fedify";
import type { Services } from "../services.ts";
import { createDocumentLoader } from "./document-loader.ts";
import { InboxKeyCache, type ActorProfile } from "./key-cache.ts";
import { loadInstanceSigner } from "./local-keys.ts";
import { outgoingOf } from "./outgoing.ts";
import type { Signer } from "./signing.ts";
import {
  diagnoseSignature,
  parseSignatureHeader,
  verifyDraftQuickly,
  type SignedRequest,
} from "./verify-draft.ts";
import { verifyRfc9421Quickly } from "./verify-rfc9421.ts";

// Who signed a request: the inbox (POST, body covered by the digest) and protected objects (GET).
// Fedify's verifyRequestDetailed() tells draft-cavage from RFC 9421 by the headers and checks the
// digest, the date window and the signature; the key comes from our cache (no JSON-LD). The usual
// inbox POST is verified first by verify-draft.ts, which applies the same checks synchronously;
// an RFC 9421 signature by verify-rfc9421.ts, which checks what Fedify 2.3.6 gets wrong.

export type Signed =
  | { ok: true; owner: string; keyId: string }
  | { ok: false; reason: string; code: SignatureFailure };

/**
 * Why a signature was not accepted, as the inbox's refusal record names it
 * (docs/server-guide.md#what-the-inbox-refused).
 */
export type SignatureFailure =
  "unsigned" | "bad_signature" | "digest_mismatch" | "key_fetch_failed" | "date_skew";

const keyCaches = new WeakMap<Services, InboxKeyCache>();

export async function verifySigner(
  services: Services,
  request: SignedRequest,
  body: Uint8Array | null,
): Promise<Signed> {
  return verifyWithKeys(
    request,
    body,
    getKeyCache(services),
    // Used only when a cached key fails to verify (a rotated key): Fedify then refetches the
    // key itself, through our address check like every other request we make.
    () => createDocumentLoader(outgoingOf(services), instanceSignerOf(services)),
  );
}

/** verifySigner() with the keys from `keyCache` (the test vectors bring their own). */
export async function verifyWithKeys(
  request: SignedRequest,
  body: Uint8Array | null,
  keyCache: KeyCache & { reasonFor?(keyId: string): string | undefined },
  documentLoader: () => DocumentLoader,
): Promise<Signed> {
  if (!request.headers.has("Signature"))
    return { ok: false, code: "unsigned", reason: "the request is not signed" };
  const signatureInput = request.headers.get("Signature-Input");
  // The usual inbox POST first: what the quick draft-cavage check accepts (a URL key id we hold,
  // RSA, request-target, date and digest covered) refusedUpFront() never refuses, so it is asked
  // only of the rest (it parsed the Signature header a second time for every request).
  if (signatureInput === null) {
    const quick = await verifyDraftQuickly(request, body, keyCache);
    if (quick) return { ok: true, ...quick };
  }
  const refused = refusedUpFront(request, body, signatureInput);
  if (refused) return { ok: false, code: "bad_signature", reason: refused };
  // RFC 9421 leaves covering the body optional; an inbox must insist on it.
  if (body !== null && signatureInput !== null && !signatureInput.includes('"content-digest"')) {
    return {
      ok: false,
      code: "bad_signature",
      reason: "the signature does not cover Content-Digest",
    };
  }
  if (signatureInput !== null) {
    const checked = await verifyRfc9421Quickly(request, body, keyCache);
    if (checked) return { ok: true, ...checked };
  }
  const headers = new Headers();
  request.headers.forEach((value, name) => headers.append(name, value));
  const copy = new Request(request.url, { method: request.method, headers, body });
  let result;
  try {
    result = await verifyRequestDetailed(copy, { keyCache, documentLoader: documentLoader() });
  } catch (error) {
    // Fedify throws rather than answers for some keys (an Ed25519 key in a draft-cavage signature).
    return {
      ok: false,
      code: "bad_signature",
      reason: `the signature could not be checked: ${(error as Error).message}`,
    };
  }
  if (!result.verified) {
    const reason = result.reason;
    if (reason.type === "noSignature")
      return { ok: false, code: "unsigned", reason: "the request is not signed" };
    const keyId = reason.keyId?.href;
    // What the request shows (a digest not matching, a Date far off) comes first: then the key
    // host's answer; else the signature itself does not verify.
    const shown = diagnoseSignature(request, body);
    if (shown) return { ok: false, code: shown.code, reason: shown.words };
    const fetchReason = keyId ? keyCache.reasonFor?.(keyId) : undefined;
    // Our own fetch of the key failed: the key host's answer. (Fedify also says keyFetchError
    // when a key we held did not verify and its refetch failed: that is a bad signature.)
    if (fetchReason) return { ok: false, code: "key_fetch_failed", reason: fetchReason };
    return {
      ok: false,
      code: "bad_signature",
      reason: `the signature${keyId ? ` by ${keyId}` : ""} does not verify with its key`,
    };
  }
  const owner = result.key.ownerId?.href;
  if (!owner)
    return {
      ok: false,
      code: "key_fetch_failed",
      reason: `key ${result.key.id?.href} names no owner`,
    };
  return { ok: true, owner, keyId: result.key.id?.href ?? "" };
}

/** What verifying an actor's signatures taught us of it (its key's document), if anything. */
export function knownActorProfile(services: Services, actorId: string): ActorProfile | undefined {
  return keyCaches.get(services)?.profileOf(actorId);
}

/**
 * What no key could make valid, said plainly (Fedify answers each of these with "invalid"): a
 * key id that is not a URL (ActivityPub keys are fetched from their id), a shared-secret (HMAC)
 * algorithm, a draft-cavage POST whose signature leaves the body's Digest out.
 */
function refusedUpFront(
  request: SignedRequest,
  body: Uint8Array | null,
  signatureInput: string | null,
): string | undefined {
  if (signatureInput !== null) {
    const keyId = /;\s*keyid="([^"]*)"/.exec(signatureInput)?.[1];
    if (keyId !== undefined && !URL.canParse(keyId))
      return `the signature's keyid "${keyId}" is not a URL: keys are fetched from their id`;
    const algorithm = /;\s*alg="([^"]*)"/.exec(signatureInput)?.[1];
    if (algorithm !== undefined && algorithm.toLowerCase().startsWith("hmac-"))
      return `the signature's algorithm ${algorithm} needs a shared secret, which no actor publishes`;
    return undefined;
  }
  const params = parseSignatureHeader(request.headers.get("Signature"));
  if (!params) return undefined;
  if (params.keyId !== undefined && !URL.canParse(params.keyId))
    return `the signature's keyId "${params.keyId}" is not a URL: keys are fetched from their id`;
  if (params.algorithm !== undefined && params.algorithm.toLowerCase().startsWith("hmac-"))
    return `the signature's algorithm ${params.algorithm} needs a shared secret, which no actor publishes`;
  const covered = (params.headers ?? "date").toLowerCase().split(/\s+/);
  if (body !== null && !covered.includes("digest")) return "the signature does not cover Digest";
  if (!covered.includes("(request-target)")) return "the signature does not cover (request-target)";
  return undefined;
}

function getKeyCache(services: Services): InboxKeyCache {
  let cache = keyCaches.get(services);
  if (!cache) {
    cache = new InboxKeyCache({
      db: services.db,
      outgoing: outgoingOf(services),
      signer: instanceSignerOf(services),
    });
    keyCaches.set(services, cache);
  }
  return cache;
}

/** Key fetches are signed by the instance actor of our first origin (docs/server-guide.md#federation). */
function instanceSignerOf(services: Services): () => Promise<Signer | null> {
  return () => {
    const baseUrl = services.config.baseUrls[0];
    return baseUrl ? loadInstanceSigner(services.db, baseUrl) : Promise.resolve(null);
  };
}
