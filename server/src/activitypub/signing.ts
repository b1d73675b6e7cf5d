import type { webcrypto } from "node:crypto";
import { checkOutgoingUrl, privateAddressReason } from "./addresses.ts";
import { parseJsonText, tooDeepReason } from "./json-depth.ts";
import type { GetAnswer, Outgoing } from "./outgoing-types.ts";
import { readLimited, readStart } from "./read-limited.ts";
import { PrivateAddressError } from "./pinned-lookup.ts";
import { signedGetHeaders, signedPostHeaders, type PreparedBody } from "./draft-signing.ts";
import { ANSWER_HEADERS, type ExchangeRequest } from "./exchange.ts";

// Signed HTTP for everything we send: lookups (authorized fetch), key fetches and deliveries.
// Both are signed by draft-signing.ts (draft-cavage, the RSA signature on the signing threads)
// and sent without fetch, on undici's own API (outgoing.ts; docs/adr/0010 and 0016). The bytes we
// deliver are exactly the bytes we were given, and every connection passes our address check
// (each is pinned to an address checked as it connects).

export interface Signer {
  keyId: URL;
  privateKey: webcrypto.CryptoKey;
}

export interface FetchOptions {
  /** The way out, and whether private addresses may be reached. */
  outgoing: Outgoing;
  timeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
  /** Each request sent and its answer are appended here (the lookup's exchange). */
  trace?: ExchangeRequest[];
  /** Whom the signer belongs to, for the trace (an actor's id). */
  signedAs?: string;
}

export type FetchResult =
  | { ok: true; document: unknown; url: string; status: number }
  | { ok: false; reason: string; status?: number; refused?: boolean };

const ACCEPT =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
/** Larger than any actor or object document; a lookup answer beyond it is refused. */
const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

/** GETs a JSON document, signed when a signer is given, following redirects hop by hop. */
export async function signedGet(
  url: string,
  signer: Signer | null,
  options: FetchOptions,
): Promise<FetchResult> {
  // One time limit for every hop and body, its timer stopped once done (timeoutSignal()).
  const timeout = timeoutSignal(options.timeoutMs ?? 10_000);
  try {
    return await getFollowing(url, signer, options, timeout.signal);
  } finally {
    timeout.clear();
  }
}

async function getFollowing(
  url: string,
  signer: Signer | null,
  options: FetchOptions,
  signal: AbortSignal,
): Promise<FetchResult> {
  const visited = new Set<string>();
  let current = url;
  for (let hop = 0; hop <= (options.maxRedirects ?? 5); hop++) {
    const check = checkOutgoingUrl(current, options.outgoing.allowPrivate);
    const refusal = !check.ok
      ? check.reason
      : visited.has(current)
        ? `redirect loop at ${current}`
        : null;
    if (refusal !== null) {
      const notSent = { method: "GET" as const, url: current, headers: {}, signedAs: null };
      options.trace?.push({ ...notSent, answer: null, error: `not sent: ${refusal}` });
      return { ok: false, reason: refusal };
    }
    visited.add(current);
    const target = new URL(current);
    const plain = { accept: options.accept ?? ACCEPT, "user-agent": options.outgoing.userAgent() };
    let headers: Record<string, string>;
    try {
      // Signed as deliveries are: our draft-cavage headers, the RSA signature on a signing thread.
      headers = signer
        ? await signedGetHeaders(target, signer, plain)
        : { ...plain, host: target.host };
    } catch (error) {
      return { ok: false, reason: `${current} was not requested: ${(error as Error).message}` };
    }
    const sent: ExchangeRequest = {
      method: "GET",
      url: current,
      headers: sortedHeaders(headers),
      signedAs: signer ? (options.signedAs ?? signer.keyId.href) : null,
      answer: null,
    };
    options.trace?.push(sent);
    const started = performance.now();
    let response: GetAnswer;
    try {
      response = await options.outgoing.get(target, headers, signal);
    } catch (error) {
      const failed = failure(current, error, options.timeoutMs);
      sent.error = failed.reason;
      return failed;
    }
    const ttfbMs = Math.round(performance.now() - started);
    const header = (name: string) => {
      const value = response.headers[name];
      return Array.isArray(value) ? value.join(", ") : (value ?? null);
    };
    const answered = () => {
      sent.answer = {
        status: response.status,
        statusText: response.statusText,
        headers: Object.fromEntries(
          ANSWER_HEADERS.flatMap((name) => {
            const value = header(name);
            return value === null ? [] : [[name, value]];
          }),
        ),
        ttfbMs,
        totalMs: Math.round(performance.now() - started),
      };
    };
    const location = header("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.discard().catch(() => {});
      current = new URL(location, current).href;
      answered();
      sent.redirectTo = current;
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      const detail = (await readStart(response.body)).slice(0, 200).replace(/\s+/g, " ").trim();
      answered();
      return {
        ok: false,
        status: response.status,
        reason: `${current} answered ${response.status} ${response.statusText}${detail ? `: ${detail}` : ""}`,
      };
    }
    const read = await readLimited(response.body, MAX_DOCUMENT_BYTES);
    answered();
    if (!read.ok)
      return { ok: false, status: response.status, reason: `${current}: ${read.reason}` };
    const parsed = parseJsonText(read.text);
    if (parsed.ok)
      return { ok: true, document: parsed.value, url: current, status: response.status };
    return {
      ok: false,
      status: response.status,
      reason:
        parsed.reason === tooDeepReason
          ? `${current} answered ${parsed.reason}`
          : `${current} did not answer JSON (${header("content-type") ?? "no content type"})`,
    };
  }
  return { ok: false, reason: `too many redirects from ${url}` };
}

/** Headers by name in alphabetical order, as the exchange has always shown them. */
function sortedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export type PostResult =
  | { ok: true; status: number }
  | {
      ok: false;
      status?: number;
      reason: string;
      refused?: boolean;
      /** The first 300 bytes of the answer's body, when there was an answer. */
      response?: string;
      /** When the answer's Retry-After allows the next attempt (ms since the epoch). */
      retryAt?: number;
    };

/** Retry-After (seconds, or an HTTP date) as a time; undefined when absent or unreadable. */
export function retryAtOf(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return now + Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : date;
}

/** The first `bytes` bytes of `text` (a character cut in two is left out). */
export function startOf(text: string, bytes: number): string {
  const encoded = Buffer.from(text);
  if (encoded.length <= bytes) return text;
  return new TextDecoder().decode(encoded.subarray(0, bytes)).replace(/\uFFFD$/, "");
}

/** POSTs `body` byte for byte to an inbox, signed (draft-cavage, the most widely accepted). */
export async function signedPost(
  inbox: string,
  body: PreparedBody,
  signer: Signer,
  options: FetchOptions,
): Promise<PostResult> {
  const check = checkOutgoingUrl(inbox, options.outgoing.allowPrivate);
  if (!check.ok) return { ok: false, reason: check.reason, refused: true };
  const url = new URL(inbox);
  let headers: Record<string, string>;
  try {
    headers = await signedPostHeaders(url, body, signer, {
      "content-type": "application/activity+json",
      accept: ACCEPT,
      "user-agent": options.outgoing.userAgent(),
    });
  } catch (error) {
    return {
      ok: false,
      reason: `the delivery to ${inbox} was not sent: ${(error as Error).message}`,
    };
  }
  const timeout = timeoutSignal(options.timeoutMs ?? 15_000);
  try {
    const answer = await options.outgoing.post(url, headers, body.bytes, timeout.signal);
    if (answer.status >= 200 && answer.status < 300) return { ok: true, status: answer.status };
    const detail = answer.detail.slice(0, 200).replace(/\s+/g, " ").trim();
    return {
      ok: false,
      status: answer.status,
      reason: `${inbox} answered ${answer.status} ${answer.statusText}${detail ? `: ${detail}` : ""}`,
      response: startOf(answer.detail, 300),
      retryAt: retryAtOf(answer.retryAfter),
    };
  } catch (error) {
    return failure(inbox, error, options.timeoutMs);
  } finally {
    timeout.clear();
  }
}

/**
 * A signal that aborts after `ms` with a TimeoutError, as AbortSignal.timeout()'s does, and the
 * means to stop its timer once the answer is in. AbortSignal.timeout()'s timer cannot be stopped:
 * it fires for every delivery, long after its answer, and builds a DOMException (stack trace and
 * all) for a signal no one listens to any more: 2% of delivery's CPU in its profile (issue 34).
 */
function timeoutSignal(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new DOMException("The operation was aborted due to timeout", "TimeoutError"),
      ),
    ms,
  );
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** A request that did not get an answer; a private address found on connecting is a refusal. */
function failure(url: string, error: unknown, timeoutMs?: number) {
  // fetch wraps a connection's error as its cause; undici's request throws it as it is.
  const cause = error instanceof PrivateAddressError ? error : (error as { cause?: unknown }).cause;
  if (cause instanceof PrivateAddressError) {
    const reason = privateAddressReason(url, `${cause.hostname} (${cause.address})`);
    return { ok: false as const, refused: true, reason };
  }
  return { ok: false as const, reason: describeFetchError(url, error, timeoutMs) };
}

function describeFetchError(url: string, error: unknown, timeoutMs?: number): string {
  const err = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError" || err.name === "AbortError") {
    const ms = timeoutMs ?? 10_000;
    return `${url} did not answer within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`}`;
  }
  const cause = err.cause?.code ?? err.code ?? err.cause?.message;
  const words = cause === undefined ? undefined : CODE_WORDS[cause];
  return `${url} could not be reached: ${cause ?? err.message}${words ? ` (${words})` : ""}`;
}

/** Node's network error codes in words, after the code (which stays, for whoever searches it). */
const CODE_WORDS: Record<string, string> = {
  ENOTFOUND: "the name does not resolve",
  EAI_NONAME: "the name does not resolve",
  EAI_AGAIN: "the name could not be resolved now",
  ECONNREFUSED: "the connection was refused: nothing listens on that port",
  ECONNRESET: "the connection was cut",
  EHOSTUNREACH: "no route to the host",
  ENETUNREACH: "the network is unreachable",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another name",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate cannot be verified",
};
