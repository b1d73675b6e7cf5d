// What kind of failure a lookup met, as a field of the answer (a Corral addition), so that a
// console can name it ("Could not resolve host", "Connection refused", "404 Not Found", "Timed
// out after N s") without parsing the sentence in `error`. The fetches below lookup/ return a
// reason in words and, when the server answered, its status: the words are read here, in one
// place, against the phrases activitypub/signing.ts and addresses.ts write (each kind is pinned
// by a test in lookup.test.ts).

import type { Exchange } from "../activitypub/exchange.ts";

export type LookupFailureKind =
  /** The host name did not resolve (ENOTFOUND, EAI_AGAIN). */
  | "dns"
  /** Nothing listened: the connection was refused or reset. */
  | "refused"
  /** No answer within the lookup's time; `seconds` says how long it waited. */
  | "timeout"
  /** The server answered with an error status; `status` holds it. */
  | "http"
  /** It answered 2xx, but not with a JSON document (or one too large or too deep). */
  | "not-json"
  /** A private or loopback address, refused without --allow-private-addresses. */
  | "blocked"
  /** Nothing by that name: no such actor here, or a WebFinger answer without an ActivityPub link. */
  | "not-found"
  /** Neither an http(s) URI nor a handle. */
  | "invalid"
  /** The actor to sign as cannot sign here. */
  | "no-key"
  /** Any other failure to get an answer. */
  | "unreachable";

export type LookupFailure = {
  raw: null;
  error: string;
  kind: LookupFailureKind;
  /** The URL the server requested last (its scheme as used), when it requested one. */
  url?: string;
  status?: number;
  seconds?: number;
  /** What was sent and what came back (docs/lookup-exchange.md). */
  exchange?: Exchange;
};

/** A fetch failure (reason and, when answered, status) as its kind. */
export function kindOfFetchFailure(failure: { reason: string; status?: number }): {
  kind: LookupFailureKind;
  status?: number;
} {
  const { reason, status } = failure;
  if (status !== undefined)
    return status >= 200 && status < 300 ? { kind: "not-json", status } : { kind: "http", status };
  // resolveHandle() keeps only the words of a WebFinger answer: "… answered 404 Not Found".
  const answered = / answered (\d{3}) /.exec(reason)?.[1];
  if (answered) return { kind: "http", status: Number(answered) };
  if (/did not answer JSON/.test(reason)) return { kind: "not-json" };
  if (/refused private address/.test(reason)) return { kind: "blocked" };
  if (/did not answer within/.test(reason)) return { kind: "timeout" };
  if (/could not be reached: (ENOTFOUND|EAI_AGAIN|EAI_NONAME)\b/.test(reason))
    return { kind: "dns" };
  if (/could not be reached: (ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH)\b/.test(reason))
    return { kind: "refused" };
  if (/^(not a URL|unsupported protocol)/.test(reason)) return { kind: "invalid" };
  if (/has no ActivityPub self link/.test(reason)) return { kind: "not-found" };
  return { kind: "unreachable" };
}
