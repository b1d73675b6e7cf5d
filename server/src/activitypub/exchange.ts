// What a signed lookup sent and what came back, hop by hop (docs/lookup-exchange.md): a Corral
// addition to POST /fe/actor/lookup's answer. Import-free: fe/wire.ts re-exports it and the
// console type-checks it. Request headers are recorded as sent: a Signature names its key and
// carries the signature, both public; no private key ever passes here.

export interface ExchangeAnswer {
  status: number;
  statusText: string;
  /** The answer's headers that matter: content type and length, location, caching, date, server, auth. */
  headers: Record<string, string>;
  /** From sending the request to the answer's headers. */
  ttfbMs: number;
  /** From sending the request to the end of its body (or giving up on it). */
  totalMs: number;
}

export interface ExchangeRequest {
  method: "GET";
  url: string;
  /** The request's headers as sent (Accept, Date, Host, Signature, User-Agent …). */
  headers: Record<string, string>;
  /** Who signed it: an actor's id (ours, or the instance actor), or null when it went unsigned. */
  signedAs: string | null;
  /** What came back; null when nothing did (then `error` says why). */
  answer: ExchangeAnswer | null;
  error?: string;
  /** Where a redirect sent the next request. */
  redirectTo?: string;
}

export interface Exchange {
  requests: ExchangeRequest[];
  /** Set when no request was sent: why (a document this server holds itself, a malformed URI). */
  note?: string;
}

/** Answer headers an ActivityPub developer checks first; the rest are left out as noise. */
export const ANSWER_HEADERS = [
  "content-type",
  "content-length",
  "location",
  "date",
  "server",
  "cache-control",
  "vary",
  "link",
  "www-authenticate",
  "retry-after",
];
