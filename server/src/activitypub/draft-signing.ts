import { createHash, type webcrypto } from "node:crypto";
import { keyObjectOf, signPool } from "./sign-pool.ts";

// Signing what we send (draft-cavage-12, what Mastodon and every other server accepts): the
// headers are built here and only the RSA signature is made on a signing thread (sign-pool.ts).
// A delivery's body is encoded and digested once, however many inboxes it goes to
// (PreparedBody), and sent byte for byte as it was queued (docs/adr/0010). GETs (lookups, key
// fetches, an actor's inbox before a delivery) are signed the same way, without a body.

/** An activity's bytes and their Digest header value, made once per body. */
export interface PreparedBody {
  text: string;
  bytes: Uint8Array;
  /** `SHA-256=<base64>` */
  digest: string;
}

export function prepareBody(text: string, digest?: string): PreparedBody {
  const bytes = Buffer.from(text, "utf8");
  return { text, bytes, digest: digest ?? digestOf(bytes) };
}

/** The Digest header value (RFC 3230) of `bytes`. */
export function digestOf(bytes: Uint8Array | string): string {
  return `SHA-256=${createHash("sha256").update(bytes).digest("base64")}`;
}

const SIGNED_HEADERS = ["host", "date", "digest", "content-type"];

/** Request headers for POSTing `body` to `url` as `signer`, Signature included. */
export async function signedPostHeaders(
  url: URL,
  body: PreparedBody,
  signer: { keyId: URL; privateKey: webcrypto.CryptoKey },
  headers: { "content-type": string; accept: string; "user-agent": string },
): Promise<Record<string, string>> {
  const all: Record<string, string> = {
    host: url.host,
    date: httpDate(),
    digest: body.digest,
    ...headers,
  };
  const signingString = [
    `(request-target): post ${url.pathname}${url.search}`,
    ...SIGNED_HEADERS.map((name) => `${name}: ${all[name]}`),
  ].join("\n");
  const signature = await signPool().sign(keyObjectOf(signer.privateKey), signingString);
  all.signature = `keyId="${signer.keyId.href}",algorithm="rsa-sha256",headers="(request-target) ${SIGNED_HEADERS.join(" ")}",signature="${signature}"`;
  return all;
}

const GET_SIGNED_HEADERS = ["host", "date", "accept"];

/**
 * Request headers for GETting `url` as `signer`, Signature included: over (request-target), host,
 * date and accept, as Mastodon signs its GETs. (request-target) is the path without the query, as
 * Fedify's signRequest() made it before (and as Mastodon and Fedify check a GET's): a GET may
 * carry a query (a collection's page), a delivery's inbox does not.
 */
export async function signedGetHeaders(
  url: URL,
  signer: { keyId: URL; privateKey: webcrypto.CryptoKey },
  headers: { accept: string; "user-agent": string },
): Promise<Record<string, string>> {
  const all: Record<string, string> = { host: url.host, date: httpDate(), ...headers };
  const signingString = [
    `(request-target): get ${url.pathname}`,
    ...GET_SIGNED_HEADERS.map((name) => `${name}: ${all[name]}`),
  ].join("\n");
  const signature = await signPool().sign(keyObjectOf(signer.privateKey), signingString);
  all.signature = `keyId="${signer.keyId.href}",algorithm="rsa-sha256",headers="(request-target) ${GET_SIGNED_HEADERS.join(" ")}",signature="${signature}"`;
  return all;
}

// The Date header changes once a second: formatted once a second.
let dateSecond = 0;
let dateText = "";
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}
