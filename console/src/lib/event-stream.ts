// The one owner of server-sent events in the console. The browser's EventSource cannot send a
// bearer header, so this runs on @microsoft/fetch-event-source, with three rules its defaults lack
// (read in node_modules/@microsoft/fetch-event-source/lib/esm/fetch.js, v2.0.1):
// - it resolves, without reconnecting, when the server ends the stream: onclose throws instead;
// - its default retry is 1000 ms and it hides the server's `retry:` value: we track it ourselves;
// - its default onopen checks only the content type: we also refuse non-200 and a missing body.
import { fetchEventSource, type EventSourceMessage } from "@microsoft/fetch-event-source";

export const DEFAULT_RETRY_MS = 5000;
const EVENT_STREAM_TYPE = "text/event-stream";

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
  /** Called once when the stream is given up (non-200, no body, not an event stream). */
  onFatal?: (reason: string) => void;
  /** Called each time the server accepts the stream: the first time and after each reconnect. */
  onOpen?: () => void;
  /** Called when the connection failed or ended and the next attempt is `delayMs` away. */
  onRetry?: (delayMs: number) => void;
  defaultRetryMs?: number;
  /** The fetch to use; the page's by default. */
  fetch?: typeof fetch;
};

export type EventStreamHandle = {
  /** Stops the stream for good (no reconnect). */
  close: () => void;
  /** Settles once the stream is over: closed by us, or given up as fatal. Never rejects. */
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
  constructor(message: string, reason: string) {
    super(message);
    this.reason = reason;
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

export function openEventStream(options: EventStreamOptions): EventStreamHandle {
  const controller = new AbortController();
  let serverRetryMs: number | null = null;
  // The library keeps its own copy and updates "last-event-id" as ids arrive; it must be this
  // lower-case spelling or a resumed id would be sent twice under two spellings.
  const headers: Record<string, string> = { accept: EVENT_STREAM_TYPE };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.lastEventId) headers["last-event-id"] = options.lastEventId;

  const running = fetchEventSource(options.url, {
    signal: controller.signal,
    headers,
    credentials: "same-origin",
    cache: "no-store",
    // Background tabs keep counting; the drawer badges are meant to be live.
    openWhenHidden: true,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    onopen: async (response) => {
      const failure = describeOpenFailure(response);
      if (failure) {
        throw new FatalStreamError(`event stream ${options.url} refused: ${failure}`, failure);
      }
      options.onOpen?.();
    },
    onmessage: (frame: EventSourceMessage) => {
      if (frame.retry !== undefined) serverRetryMs = frame.retry;
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
      if (error instanceof FatalStreamError) {
        console.error(error.message);
        options.onFatal?.(error.reason);
        throw error;
      }
      const delay = chooseRetryDelay(serverRetryMs, options.defaultRetryMs);
      if (error instanceof StreamEndedError) {
        console.info(`event stream ${options.url} ended; reconnecting in ${delay} ms`);
      } else {
        console.warn(
          `event stream ${options.url} failed (${describeError(error)}); reconnecting in ${delay} ms`,
        );
      }
      options.onRetry?.(delay);
      return delay;
    },
  });
  const done = running.then(
    () => "closed" as const,
    () => "fatal" as const,
  );
  return { close: () => controller.abort(), done };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
