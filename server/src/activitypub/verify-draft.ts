import { hash } from "node:crypto";
import type { KeyCache } from "@fedify/fedify";
import { findCachedKey } from "./cached-key.ts";
import { signPool } from "./sign-pool.ts";

// The common case of an inbox POST, checked quickly: a draft-cavage signature made with an RSA key
// we already hold, over (request-target), date and a SHA digest of the body. It applies exactly the
// checks Fedify's verifyRequestDetailed() applies to such a request, without cloning the request,
// the Temporal polyfill or Fedify's two trips to the crypto thread pool per request (about half of
// an inbox request's time in `npm run bench`); the RSA verify alone goes to the signing threads. A
// signed GET (no body, so no digest) is checked the same way; unlike Fedify, (request-target) keeps
// the query (draftSigningString()).
//
// It only ever says "verified". Anything unusual (RFC 9421, created/expires parameters, a digest
// written differently, a key not RSA, a signature that fails: perhaps a rotated key) is left
// undecided, and Fedify decides with its own reasons and its refetch of rotated keys.

/** Fedify's default: the Date header may be at most an hour away from now, either way. */
const TIME_WINDOW_MS = 60 * 60 * 1000;
const DIGESTS = new Map([
  ["sha", "sha1"],
  ["sha-256", "sha256"],
  ["sha-512", "sha512"],
]);
const RSA_ALGORITHMS = new Set(["rsa-sha256", "hs2019"]);

export type QuickVerdict = { owner: string; keyId: string } | undefined;

/** What checking a signature reads of a request: a fetch Request, or the inbox's own view. */
export interface SignedRequest {
  readonly method: string;
  /** The whole URL, as addressed to our base URL. */
  readonly url: string;
  readonly headers: {
    get(name: string): string | null;
    has(name: string): boolean;
    forEach(each: (value: string, name: string) => void): void;
  };
}

/** `body` null: a GET or HEAD, whose signature need not cover a digest (as Fedify's rule). */
export async function verifyDraftQuickly(
  request: SignedRequest,
  body: Uint8Array | null,
  keyCache: KeyCache,
  now = Date.now(),
): Promise<QuickVerdict> {
  const headers = request.headers;
  if (headers.has("Signature-Input")) return undefined;
  const params = parseSignatureHeader(headers.get("Signature"));
  if (!params) return undefined;
  const { keyId, headers: covered, signature, algorithm } = params;
  if (!keyId || !covered || !signature) return undefined;
  if ("created" in params || "expires" in params) return undefined;
  if (algorithm !== undefined && !RSA_ALGORITHMS.has(algorithm.toLowerCase())) return undefined;

  const names = covered.split(/\s+/g);
  if (!names.includes("(request-target)") || !names.includes("date")) return undefined;
  if (body !== null && !names.includes("digest")) return undefined;

  const date = Date.parse(headers.get("Date") ?? "");
  if (Number.isNaN(date) || Math.abs(date - now) > TIME_WINDOW_MS) return undefined;
  if (body !== null && !digestMatches(headers.get("Digest"), body)) return undefined;

  const key = await findCachedKey(keyCache, keyId);
  if (!key?.rsaSha256) return undefined;

  const signingString = draftSigningString(request, names);
  if (signingString === null) return undefined;
  // On the signing threads, the checks of one turn together: the main thread goes on with other
  // requests meanwhile (docs/adr/0016-inbox-claims-with-the-append.md), and sends each thread one
  // message for them all rather than a trip to libuv's pool each
  // (docs/adr/0019-inbox-read-before-node-http.md). A check that cannot be made (a key not RSA
  // after all) is no verdict: Fedify decides.
  const signed = await signPool()
    .verify(key.keyObject, signingString, signature)
    .catch(() => false);
  return signed ? { owner: key.owner, keyId: key.keyId } : undefined;
}

/**
 * The string a draft-cavage signature over `names` signs, or null when a named header is missing.
 * (request-target) is the method and the path *with its query*, as draft-cavage-12 §2.3 and its
 * appendix C say and as draft-signing.ts signs. Mastodon, and Fedify 2.3.6 both ways, leave the
 * query out: such a signature fails here and is then checked by Fedify, which accepts that form.
 */
export function draftSigningString(
  request: SignedRequest,
  names: readonly string[],
): string | null {
  const headers = request.headers;
  const lines: string[] = [];
  for (const name of names) {
    let value: string | null;
    if (name === "(request-target)") {
      value = `${request.method.toLowerCase()} ${requestTarget(request.url)}`;
    } else if (name === "host") {
      value = headers.get("host") ?? new URL(request.url).host;
    } else {
      value = headers.get(name);
    }
    if (value === null) return null;
    lines.push(`${name}: ${value}`);
  }
  return lines.join("\n");
}

/** The path and query of `url` as URL would write them; a plain path is read off the text. */
function requestTarget(url: string): string {
  const path = /^https?:\/\/[^/?#]+(\/[A-Za-z0-9_./-]*)$/.exec(url)?.[1];
  if (path !== undefined && !path.includes("/.") && !path.includes("//")) return path;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** The Signature header's parameters, read as Fedify reads them; null when there is none. */
export function parseSignatureHeader(header: string | null): Record<string, string> | null {
  if (header === null) return null;
  const params: Record<string, string> = {};
  for (const pair of header.split(",")) {
    const match = /^\s*([A-Za-z]+)=(?:"([^"]*)"|(\d+))\s*$/.exec(pair);
    if (match) params[match[1]!] = match[2] ?? match[3]!;
  }
  return params;
}

/** Every digest we know must match the body, and at least one must be there. */
function digestMatches(header: string | null, body: Uint8Array): boolean {
  if (header === null) return false;
  let matched = false;
  for (const entry of header.split(",")) {
    const at = entry.indexOf("=");
    if (at < 0) return false;
    const algorithm = DIGESTS.get(entry.slice(0, at).trim().toLowerCase());
    if (algorithm === undefined) continue;
    // Compared as canonical base64 text: any other spelling is left to Fedify. A plain comparison:
    // the digest of a body its sender chose is no secret (timingSafeEqual and the two Buffers for
    // it were half of this function's CPU).
    if (entry.slice(at + 1).trim() !== hash(algorithm, body, "base64")) return false;
    matched = true;
  }
  return matched;
}

/** Why a signature that failed did fail, when the request itself shows it: digest or date. */
export type SignatureDiagnosis =
  { code: "digest_mismatch"; words: string } | { code: "date_skew"; words: string; skewMs: number };

/**
 * Read only for a request already refused (never on the accepted path): a digest header that
 * does not match the body, or a Date (or RFC 9421 `created`) outside the hour Fedify allows.
 */
export function diagnoseSignature(
  request: SignedRequest,
  body: Uint8Array | null,
  now = Date.now(),
): SignatureDiagnosis | undefined {
  const headers = request.headers;
  if (body !== null) {
    const digest = headers.get("Digest");
    if (digest !== null && !digestMatches(digest, body))
      return { code: "digest_mismatch", words: "the Digest header does not match the body" };
    const contentDigest = headers.get("Content-Digest");
    if (contentDigest !== null && !contentDigestMatches(contentDigest, body))
      return {
        code: "digest_mismatch",
        words: "the Content-Digest header does not match the body",
      };
  }
  const created = /;created=(\d+)/.exec(headers.get("Signature-Input") ?? "")?.[1];
  const signedAt =
    created !== undefined ? Number(created) * 1000 : Date.parse(headers.get("Date") ?? "");
  if (!Number.isNaN(signedAt) && Math.abs(signedAt - now) > TIME_WINDOW_MS) {
    const skewMs = signedAt - now;
    return {
      code: "date_skew",
      skewMs,
      words: `the request's ${created !== undefined ? "signature creation time" : "Date"} is ${describeSkew(skewMs)} our clock (at most 1 h allowed)`,
    };
  }
  return undefined;
}

/** "2 h 0 min behind", "35 min ahead of". */
function describeSkew(skewMs: number): string {
  const minutes = Math.round(Math.abs(skewMs) / 60_000);
  const text =
    minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return `${text} ${skewMs < 0 ? "behind" : "ahead of"}`;
}

/** RFC 9530 Content-Digest (`sha-256=:BASE64:`): every known algorithm must match, one at least. */
function contentDigestMatches(header: string, body: Uint8Array): boolean {
  let matched = false;
  for (const entry of header.split(",")) {
    const match = /^\s*([A-Za-z0-9-]+)=:([^:]*):\s*$/.exec(entry);
    if (!match) return false;
    const algorithm = DIGESTS.get(match[1]!.toLowerCase());
    if (algorithm === undefined || algorithm === "sha1") continue;
    if (match[2] !== hash(algorithm, body, "base64")) return false;
    matched = true;
  }
  return matched;
}
