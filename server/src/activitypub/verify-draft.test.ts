import {
  generateCryptoKeyPair,
  signRequest,
  verifyRequestDetailed,
  type KeyCache,
} from "@fedify/fedify";
import { CryptographicKey } from "@fedify/fedify/vocab";
import type { webcrypto } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyDraftQuickly } from "./verify-draft.ts";

// The quick check must verify the usual inbox POST and leave everything else to Fedify; whatever
// it verifies, Fedify's verifyRequestDetailed() verifies too.

const INBOX = "https://here.example/actor/bob/inbox";
const KEY_ID = new URL("https://there.example/actor/alice#main-key");
const OWNER = "https://there.example/actor/alice";
const body = JSON.stringify({ type: "Create", actor: OWNER, object: { type: "Note" } });

let rsa: webcrypto.CryptoKeyPair;
let otherRsa: webcrypto.CryptoKeyPair;
let ed25519: webcrypto.CryptoKeyPair;

beforeAll(async () => {
  [rsa, otherRsa, ed25519] = await Promise.all([
    generateCryptoKeyPair("RSASSA-PKCS1-v1_5"),
    generateCryptoKeyPair("RSASSA-PKCS1-v1_5"),
    generateCryptoKeyPair("Ed25519"),
  ]);
});

function cacheHolding(publicKey: webcrypto.CryptoKey | null): KeyCache {
  const key = publicKey && new CryptographicKey({ id: KEY_ID, owner: new URL(OWNER), publicKey });
  return { get: async () => key, set: async () => {} };
}

function sign(
  options: {
    privateKey?: webcrypto.CryptoKey;
    spec?: "rfc9421";
    headers?: Record<string, string>;
  } = {},
) {
  const request = new Request(INBOX, {
    method: "POST",
    headers: { "Content-Type": "application/activity+json", ...options.headers },
    body,
  });
  return signRequest(
    request,
    options.privateKey ?? rsa.privateKey,
    KEY_ID,
    options.spec ? { spec: options.spec } : {},
  );
}

function withHeaders(request: Request, change: (headers: Headers) => void): Request {
  const headers = new Headers(request.headers);
  change(headers);
  return new Request(request.url, { method: request.method, headers, body });
}

/** Both verdicts for one request: the quick one and Fedify's. */
async function verdicts(
  request: Request,
  sentBody = body,
  publicKey: webcrypto.CryptoKey | null = rsa.publicKey,
) {
  const keyCache = cacheHolding(publicKey);
  const quick = await verifyDraftQuickly(
    request.clone(),
    new TextEncoder().encode(sentBody),
    keyCache,
  );
  const fedify = await verifyRequestDetailed(
    new Request(request.url, { method: request.method, headers: request.headers, body: sentBody }),
    { keyCache, documentLoader: () => Promise.reject(new Error("no fetching in this test")) },
  ).then(
    (result) => result.verified,
    () => false, // Fedify throws on an Ed25519 key in a draft-cavage signature
  );
  return { quick, fedify };
}

describe("verifyDraftQuickly", () => {
  it("verifies a draft-cavage signed POST and names the key's owner, as Fedify does", async () => {
    const { quick, fedify } = await verdicts(await sign());
    expect(quick).toEqual({ owner: OWNER, keyId: KEY_ID.href });
    expect(fedify).toBe(true);
  });

  it("leaves a tampered body undecided (Fedify refuses it)", async () => {
    const { quick, fedify } = await verdicts(await sign(), body.replace("Note", "Article"));
    expect(quick).toBeUndefined();
    expect(fedify).toBe(false);
  });

  it("leaves a signature by another key undecided (Fedify refuses it)", async () => {
    const { quick, fedify } = await verdicts(await sign({ privateKey: otherRsa.privateKey }));
    expect(quick).toBeUndefined();
    expect(fedify).toBe(false);
  });

  it("leaves a Date more than an hour away undecided (Fedify refuses it)", async () => {
    const old = new Date(Date.now() - 2 * 3600_000).toUTCString();
    const { quick, fedify } = await verdicts(await sign({ headers: { Date: old } }));
    expect(quick).toBeUndefined();
    expect(fedify).toBe(false);
  });

  it("leaves a Digest that does not match the body undecided (Fedify refuses it)", async () => {
    const signed = withHeaders(await sign(), (h) =>
      h.set("Digest", "SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="),
    );
    const { quick, fedify } = await verdicts(signed);
    expect(quick).toBeUndefined();
    expect(fedify).toBe(false);
  });

  it("leaves a Digest whose algorithm is named like a built-in property undecided, without failing", async () => {
    const signed = withHeaders(await sign(), (h) => h.set("Digest", "constructor=abc"));
    const { quick, fedify } = await verdicts(signed);
    expect(quick).toBeUndefined();
    expect(fedify).toBe(false);
  });

  it("leaves a signature that does not cover the digest undecided", async () => {
    const signed = withHeaders(await sign(), (h) =>
      h.set("Signature", h.get("Signature")!.replace(" digest ", " ")),
    );
    expect(signed.headers.get("Signature")).not.toMatch(/digest/);
    const { quick, fedify } = await verdicts(signed);
    expect(quick).toBeUndefined();
    expect(fedify).toBe(false);
  });

  it("leaves RFC 9421 signatures to Fedify", async () => {
    const { quick, fedify } = await verdicts(await sign({ spec: "rfc9421" }));
    expect(quick).toBeUndefined();
    expect(fedify).toBe(true);
  });

  it("leaves keys that are not RSA, and keys it cannot find, to Fedify", async () => {
    expect(await verdicts(await sign(), body, ed25519.publicKey)).toEqual({
      quick: undefined,
      fedify: false,
    });
    expect(await verdicts(await sign(), body, null)).toEqual({ quick: undefined, fedify: false });
  });
});
