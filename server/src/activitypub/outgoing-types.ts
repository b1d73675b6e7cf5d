// What the way out of the server offers (outgoing.ts makes it). Its own module so that
// services.ts can name it without importing outgoing.ts, which imports services.ts.

import type { Response } from "undici";

export interface Outgoing {
  /** Whether loopback and private networks may be reached (--allow-private-addresses). */
  readonly allowPrivate: boolean;
  /** Sends `request` with `body` as its bytes; redirects are returned, not followed. */
  send(request: Request, body: Uint8Array | null, signal: AbortSignal): Promise<Response>;
  /**
   * POSTs `body` with exactly `headers`, over a kept-alive connection to the URL's origin (the
   * delivery path: no Request or Response objects). Redirects are answers, not followed; the
   * answer's body is read only for an error's first 4 KiB.
   */
  post(
    url: URL,
    headers: Record<string, string>,
    body: Uint8Array,
    signal: AbortSignal,
  ): Promise<Answer>;
  close(): Promise<void>;
  /** The addresses a name resolves to, as connections resolve it (a host check's first step). */
  resolve?(hostname: string): Promise<string[]>;
}

/** A POST's answer: its status and, unless 2xx, the start of its body. */
export interface Answer {
  status: number;
  statusText: string;
  detail: string;
  /** The Retry-After header of an error answer, as sent. */
  retryAfter?: string;
}
