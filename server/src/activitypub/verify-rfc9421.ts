import { constants, hash, type KeyObject, timingSafeEqual, verify } from "node:crypto";
import type { KeyCache } from "@fedify/fedify";
import { findCachedKey } from "./cached-key.ts";
import { decodeDict, encodeItem, Item } from "structured-field-values";
import type { QuickVerdict, SignedRequest } from "./verify-draft.ts";

// RFC 9421 signatures checked as the RFC says, where Fedify 2.3.6's verifyRequestDetailed() does
// not: it writes `@query` without its leading "?" (RFC 9421 section 2.2.7) and hands WebCrypto no
// salt length for rsa-pss-sha512, so both fail there (the RFC's appendix B showed it; see
// signature-vectors.test.ts). Like verify-draft.ts this only ever says "verified": a component
// or parameter it does not know, a key it does not hold, a check that fails are left to Fedify,
// which decides with its reasons. Remove when Fedify's verifier handles both.

/** Fedify's default window for `created`: an hour either way. */
const TIME_WINDOW_S = 60 * 60;
const DIGESTS = new Map([
  ["sha-256", "sha256"],
  ["sha-512", "sha512"],
]);

type Params = Record<string, unknown>;
interface Component {
  value: unknown;
  params: Params | null;
}

export async function verifyRfc9421Quickly(
  request: SignedRequest,
  body: Uint8Array | null,
  keyCache: KeyCache,
  now = Date.now(),
): Promise<QuickVerdict> {
  const inputHeader = request.headers.get("Signature-Input");
  const signatureHeader = request.headers.get("Signature");
  if (inputHeader === null || signatureHeader === null) return undefined;
  let inputs: Record<string, { value: unknown; params: Params | null }>;
  let signatures: Record<string, { value: unknown }>;
  try {
    // decodeDict() answers a plain object (its type also allows a Map).
    inputs = decodeDict(inputHeader) as unknown as typeof inputs;
    signatures = decodeDict(signatureHeader) as unknown as typeof signatures;
  } catch {
    return undefined;
  }
  for (const [label, input] of Object.entries(inputs)) {
    const signature = signatures[label]?.value;
    if (!(signature instanceof Uint8Array) || !Array.isArray(input.value)) continue;
    const verdict = await checkSignature(
      request,
      body,
      keyCache,
      now,
      input.value as Component[],
      input.params ?? {},
      signature,
    );
    if (verdict) return verdict;
  }
  return undefined;
}

async function checkSignature(
  request: SignedRequest,
  body: Uint8Array | null,
  keyCache: KeyCache,
  now: number,
  components: Component[],
  params: Params,
  signature: Uint8Array,
): Promise<QuickVerdict> {
  const { keyid, created, expires, alg } = params;
  if (typeof keyid !== "string" || typeof created !== "number") return undefined;
  if (alg !== undefined && typeof alg !== "string") return undefined;
  const seconds = now / 1000;
  if (Math.abs(seconds - created) > TIME_WINDOW_S) return undefined;
  if (expires !== undefined && (typeof expires !== "number" || seconds > expires)) return undefined;
  if (body !== null) {
    if (!components.some((c) => c.value === "content-digest")) return undefined;
    if (!contentDigestMatches(request.headers.get("Content-Digest"), body)) return undefined;
  }
  const base = signatureBase(request, components, params);
  if (base === null) return undefined;

  const key = await findCachedKey(keyCache, keyid);
  if (!key) return undefined;
  const data = Buffer.from(base);
  return verifyWith(alg, key.keyObject, data, signature)
    ? { owner: key.owner, keyId: key.keyId }
    : undefined;
}

/** RFC 9421 section 2.5; null when a component is one this module does not derive. */
function signatureBase(
  request: SignedRequest,
  components: Component[],
  params: Params,
): string | null {
  const url = new URL(request.url);
  const lines: string[] = [];
  for (const component of components) {
    const name = component.value;
    if (typeof name !== "string") return null;
    const value = componentValue(request, url, name, component.params);
    if (value === null) return null;
    lines.push(`${encodeItem(new Item(name, component.params))}: ${value}`);
  }
  const list = components.map((c) => encodeItem(new Item(c.value, c.params))).join(" ");
  const serialized = encodeItem(new Item(0, params));
  lines.push(`"@signature-params": (${list})${serialized.slice(serialized.indexOf(";"))}`);
  return lines.join("\n");
}

function componentValue(
  request: SignedRequest,
  url: URL,
  name: string,
  params: Params | null,
): string | null {
  const paramNames = Object.keys(params ?? {});
  if (name === "@query-param") {
    const wanted = params?.name;
    if (paramNames.length !== 1 || typeof wanted !== "string") return null;
    // Percent-encoded or repeated names need section 2.2.8's re-encoding: left to Fedify.
    if (/[%+]/.test(url.search)) return null;
    const values = new URLSearchParams(url.search).getAll(wanted);
    return values.length === 1 ? values[0]! : null;
  }
  if (paramNames.length > 0) return null;
  switch (name) {
    case "@method":
      return request.method.toUpperCase();
    case "@target-uri":
      return url.href;
    case "@authority":
      return url.host;
    case "@scheme":
      return url.protocol.slice(0, -1);
    case "@request-target":
      return `${url.pathname}${url.search}`;
    case "@path":
      return url.pathname;
    case "@query":
      return url.search === "" ? "?" : url.search;
  }
  if (name.startsWith("@") || name !== name.toLowerCase()) return null;
  return request.headers.get(name)?.trim() ?? null;
}

/** Every sha-256/sha-512 digest given must match the body, and at least one must be there. */
function contentDigestMatches(header: string | null, body: Uint8Array): boolean {
  if (header === null) return false;
  let dict: Record<string, { value: unknown }>;
  try {
    dict = decodeDict(header) as unknown as typeof dict;
  } catch {
    return false;
  }
  let matched = false;
  for (const [name, { value }] of Object.entries(dict)) {
    const algorithm = DIGESTS.get(name.toLowerCase());
    if (algorithm === undefined) continue;
    if (!(value instanceof Uint8Array)) return false;
    const expected = hash(algorithm, body, "buffer");
    if (value.length !== expected.length || !timingSafeEqual(value, expected)) return false;
    matched = true;
  }
  return matched;
}

/** RFC 9421 section 3.3's algorithms, or the key's own when `alg` is absent. */
function verifyWith(
  alg: string | undefined,
  key: KeyObject,
  data: Buffer,
  signature: Uint8Array,
): boolean {
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const algorithm =
    alg?.toLowerCase() ??
    (type === "rsa"
      ? "rsa-v1_5-sha256"
      : type === "ed25519"
        ? "ed25519"
        : curve === "prime256v1"
          ? "ecdsa-p256-sha256"
          : curve === "secp384r1"
            ? "ecdsa-p384-sha384"
            : "");
  try {
    switch (algorithm) {
      case "rsa-v1_5-sha256":
        return type === "rsa" && verify("sha256", data, key, signature);
      case "rsa-v1_5-sha512":
        return type === "rsa" && verify("sha512", data, key, signature);
      case "rsa-pss-sha512":
        return (
          (type === "rsa" || type === "rsa-pss") &&
          verify(
            "sha512",
            data,
            { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 },
            signature,
          )
        );
      case "ecdsa-p256-sha256":
        return (
          curve === "prime256v1" &&
          verify("sha256", data, { key, dsaEncoding: "ieee-p1363" }, signature)
        );
      case "ecdsa-p384-sha384":
        return (
          curve === "secp384r1" &&
          verify("sha384", data, { key, dsaEncoding: "ieee-p1363" }, signature)
        );
      case "ed25519":
        return type === "ed25519" && verify(null, data, key, signature);
      default:
        return false;
    }
  } catch {
    return false;
  }
}
