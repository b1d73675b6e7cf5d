// What the way out of the server offers (outgoing.ts makes it). Its own module so that
// services.ts can name it without importing outgoing.ts, which imports services.ts.

export interface Outgoing {
  /** Whether loopback and private networks may be reached (--allow-private-addresses). */
  readonly allowPrivate: boolean;
  /**
   * The User-Agent every request carries: `Corral/<version> (+<this server's first base URL>)`,
   * so that another server's operator can tell who is asking and where to look.
   */
  userAgent(): string;
  /**
   * GETs `url` with exactly `headers`, over a kept-alive connection to its origin (no Request or
   * Response objects). Redirects are answers, not followed. The caller reads or discards the body.
   */
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<GetAnswer>;
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

/** A GET's answer, its body not read yet. */
export interface GetAnswer {
  status: number;
  statusText: string;
  /** The answer's headers, by lower-case name (a repeated header: its values in a list). */
  headers: Record<string, string | string[] | undefined>;
  /** The body in chunks, as they arrive; leaving the loop early stops reading it. */
  body: AsyncIterable<Uint8Array>;
  /** Drops the body unread (a redirect's, an error's rest), freeing the connection. */
  discard(): Promise<void>;
}

/** A POST's answer: its status and, unless 2xx, the start of its body. */
export interface Answer {
  status: number;
  statusText: string;
  detail: string;
  /** The Retry-After header of an error answer, as sent. */
  retryAfter?: string;
}
