// The one owner of server-sent events in the console. The browser's EventSource cannot send a
// bearer header, so this runs on @microsoft/fetch-event-source (read in
// node_modules/@microsoft/fetch-event-source/lib/esm/fetch.js, v2.0.1), with our own reconnect
// loop around it: each connection is one fetchEventSource call that never retries by itself, so
// that the delay is ours (and can be cut short: "Reconnect now"), and:
// - a stream the server ends is reconnected after its `retry:` value or 5000 ms;
// - no answer, or a gateway's 502, 503 or 504 (nginx or Corral's proxy mode while the server
//   behind it restarts), is "not now": tried again after a delay that grows with each failure in
//   a row (5 s, 5 s, 10 s, 10 s, 20 s, 40 s, then 60 s), or after the answer's Retry-After; so a
//   restart of up to half a minute is noticed within 10 s of its end, and a long outage is asked
//   about once a minute;
// - any other refusal (401, 404, 422, 500, not an event stream) is given up until asked again.
import { fetchEventSource, type EventSourceMessage } from "@microsoft/fetch-event-source";
import {
  isGatewayStatus,
  noteServerAnswered,
  noteServerAway,
  onServerBack,
} from "../server-reachability.ts";

export const DEFAULT_RETRY_MS = 5000;
export const MAX_RETRY_MS = 60_000;
const EVENT_STREAM_TYPE = "text/event-stream";

/** Why the stream waits to reconnect: the server ended it, or the server is away. */
export type RetryCause = "ended" | "unreachable";

export type EventStreamOptions = {
  url: string;
  /** Sent as `Authorization: Bearer …` when set. */
  token: string | null;
  /** Resumes after this id (a reload keeps it), sent as Last-Event-ID on the first request. */
  lastEventId?: string | null;
  /** Called with each data frame that parses as JSON, and the frame's event id if any. */
  onMessage: (message: unknown, id: string | null) => void;
  /**
   * Called with the id of a frame that carries no message (Corral tells a first connection the
   * newest id this way): where to resume from if nothing later is kept.
   */
  onPosition?: (id: string) => void;
  /**
   * Called when the stream is given up (a refusal other than a gateway's, no body, not an event
   * stream); `status` is the HTTP status when there was one (401: the token is dead).
   */
  onFatal?: (reason: string, status: number | null) => void;
  /** Called each time the server accepts the stream: the first time and after each reconnect. */
  onOpen?: () => void;
  /** Called when the connection failed or ended and the next attempt is `delayMs` away. */
  onRetry?: (delayMs: number, cause: RetryCause) => void;
  defaultRetryMs?: number;
  /** The fetch to use; the page's by default. */
  fetch?: typeof fetch;
};

export type EventStreamHandle = {
  /** Stops the stream for good (no reconnect). */
  close: () => void;
  /** Connects at once: cuts a reconnect delay short, or starts again after a fatal answer. */
  reconnect: () => void;
  /**
   * Settles the first time the stream stops trying: closed by us, or given up as fatal (a later
   * `reconnect()` may start it again). Never rejects.
   */
  done: Promise<"closed" | "fatal">;
};

/** The delay before reconnecting: the server's last `retry:` value if it sent one, else the default. */
export function chooseRetryDelay(
  serverRetryMs: number | null,
  defaultMs = DEFAULT_RETRY_MS,
): number {
  return serverRetryMs !== null && Number.isFinite(serverRetryMs) && serverRetryMs >= 0
    ? serverRetryMs
    : defaultMs;
}

/** Reads a data frame as JSON; anything else (cattle_grid's heartbeat `data: : <3`) is skipped. */
export function parseFrameData(data: string): { ok: true; value: unknown } | { ok: false } {
  if (data.trim() === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(data) };
  } catch {
    return { ok: false };
  }
}

class FatalStreamError extends Error {
  readonly reason: string;
  readonly status: number | null;
  constructor(message: string, reason: string, status: number | null) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
}
/** A gateway's 502, 503 or 504: the server behind it is away for now. */
class GatewayError extends Error {
  readonly status: number;
  readonly retryAfterMs: number | null;
  constructor(status: number, retryAfterMs: number | null) {
    super(`status ${status}`);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}
class StreamEndedError extends Error {}

export function describeOpenFailure(response: Response): string | null {
  const contentType = response.headers.get("content-type") ?? "";
  if (response.status !== 200) return `status ${response.status}`;
  if (!response.body) return "no body";
  if (!contentType.toLowerCase().startsWith(EVENT_STREAM_TYPE)) {
    return `content type ${contentType || "(none)"}`;
  }
  return null;
}

/** The base delay's multiple after 1, 2, 3 … failures in a row; the last one repeats. */
const BACKOFF_STEPS = [1, 1, 2, 2, 4, 8, 12];

/**
 * The delay after `failures` failures in a row (1 for the first): a growing multiple of the base
 * delay, at most 60 s; a Retry-After the answer carried wins (at most 10 min).
 */
export function chooseBackoffDelay(
  failures: number,
  baseMs: number,
  retryAfterMs: number | null = null,
): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, 10 * MAX_RETRY_MS);
  const step = BACKOFF_STEPS[Math.min(Math.max(failures, 1), BACKOFF_STEPS.length) - 1]!;
  return Math.min(baseMs * step, Math.max(MAX_RETRY_MS, baseMs));
}

/** Retry-After in ms: a number of seconds or an HTTP date; null when absent or unreadable. */
export function readRetryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function openEventStream(options: EventStreamOptions): EventStreamHandle {
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let serverRetryMs: number | null = null;
  let lastEventId = options.lastEventId ?? null;
  /** Failures in a row since the stream was last accepted. */
  let failures = 0;
  let closed = false;
  let current: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waitingFor: RetryCause | "fatal" | null = null;
  /** Whether this run of failures was already cut short by news that the server is back. */
  let hurried = false;
  let settle!: (how: "closed" | "fatal") => void;
  const done = new Promise<"closed" | "fatal">((resolve) => (settle = resolve));
  // The server answering anything else (another stream, an info call) is the news a stream
  // waiting out an unreachable server needs: it need not wait out a longer delay. Only once a
  // reconnect has failed too (the first delay is 5000 ms, docs/console-guide.md#streams), and once per
  // run of failures: a gateway that refuses streams alone must not be asked at every other answer.
  const stopListening = onServerBack(() => {
    if (waitingFor !== "unreachable" || hurried || failures < 2) return;
    hurried = true;
    connectNow();
  });

  function connectNow(): void {
    if (closed) return;
    clearTimeout(timer);
    waitingFor = null;
    current?.abort();
    void connect();
  }

  function retryLater(cause: RetryCause, delayMs: number): void {
    waitingFor = cause;
    options.onRetry?.(delayMs, cause);
    timer = setTimeout(connectNow, delayMs);
  }

  async function connect(): Promise<void> {
    const controller = new AbortController();
    current = controller;
    // Lower-case, the spelling the library itself uses, so that a resumed id is sent once.
    const headers: Record<string, string> = { accept: EVENT_STREAM_TYPE };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (lastEventId) headers["last-event-id"] = lastEventId;
    try {
      await fetchEventSource(options.url, {
        signal: controller.signal,
        headers,
        credentials: "same-origin",
        cache: "no-store",
        // Background tabs keep counting; the drawer badges are meant to be live.
        openWhenHidden: true,
        fetch: fetchImpl,
        onopen: async (response) => {
          if (isGatewayStatus(response.status)) {
            const retryAfter = readRetryAfterMs(response.headers.get("retry-after"));
            throw new GatewayError(response.status, retryAfter);
          }
          const failure = describeOpenFailure(response);
          if (failure) {
            const message = `event stream ${options.url} refused: ${failure}`;
            throw new FatalStreamError(message, failure, response.status);
          }
          failures = 0;
          hurried = false;
          noteServerAnswered();
          options.onOpen?.();
        },
        onmessage: (frame: EventSourceMessage) => {
          if (frame.retry !== undefined) serverRetryMs = frame.retry;
          if (frame.id) lastEventId = frame.id;
          const parsed = parseFrameData(frame.data);
          try {
            if (parsed.ok) options.onMessage(parsed.value, frame.id || null);
            else if (frame.id) options.onPosition?.(frame.id);
          } catch (error) {
            // A consumer's bug must not tear down the connection for every later message.
            console.error("event stream consumer failed", error);
          }
        },
        onclose: () => {
          throw new StreamEndedError("server closed the stream");
        },
        onerror: (error: unknown) => {
          // Never retried by the library: the loop here decides.
          throw error;
        },
      });
    } catch (error) {
      if (controller.signal.aborted || closed) return;
      handleFailure(error);
    }
  }

  function handleFailure(error: unknown): void {
    const baseMs = chooseRetryDelay(serverRetryMs, options.defaultRetryMs);
    if (error instanceof FatalStreamError) {
      console.error(error.message);
      waitingFor = "fatal";
      options.onFatal?.(error.reason, error.status);
      settle("fatal");
      return;
    }
    if (error instanceof StreamEndedError) {
      const delay = chooseRetryDelay(serverRetryMs, options.defaultRetryMs);
      console.info(`event stream ${options.url} ended; reconnecting in ${delay} ms`);
      return retryLater("ended", delay);
    }
    failures += 1;
    const retryAfter = error instanceof GatewayError ? error.retryAfterMs : null;
    const delay = chooseBackoffDelay(failures, baseMs, retryAfter);
    const what = error instanceof GatewayError ? error.message : describeError(error);
    noteServerAway(error instanceof GatewayError ? `HTTP ${error.status}` : `no answer: ${what}`);
    console.warn(`event stream ${options.url} failed (${what}); reconnecting in ${delay} ms`);
    retryLater("unreachable", delay);
  }

  void connect();
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      stopListening();
      current?.abort();
      settle("closed");
    },
    reconnect: () => {
      if (waitingFor === "fatal") failures = 0;
      connectNow();
    },
    done,
  };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
