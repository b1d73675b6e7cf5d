// GET /account/stream/{incoming|outgoing|error|combined}: Server-Sent Events. Frames are
// `id: N`, `data: <one line of JSON>`, blank line. A reconnect with Last-Event-ID gets every
// stored event after N, so a dropped connection or a restart loses nothing; live events arrive
// through the bus (no polling), and a `: keep-alive` comment keeps idle connections open. A
// stream ends within a second or two of its token (sign-out, revoke-tokens, a new password,
// expiry), whichever process ended it (accounts/token-watch.ts).

import { getLogger } from "@logtape/logtape";
import { Hono } from "hono";
import type { StreamName, ValidationError } from "./wire.ts";
import { streamNames } from "./wire.ts";
import { tokenWatchOf, type TokenWatch } from "../accounts/index.ts";
import { SentBodies, type StoredEvent } from "../events/index.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendValidationErrors } from "./errors.ts";
import { parseCombinedId, watchCombined, type Frame } from "../events/combined.ts";

const log = getLogger(["corral", "events"]);

/** `tokenWatch`: how a stream learns that its token ended (default: this server's tokens). */
export function createStreamRoutes(services: Services, options: { tokenWatch?: TokenWatch } = {}) {
  const tokenWatch = options.tokenWatch ?? tokenWatchOf(services);
  return new Hono<FeEnv>().get("/account/stream/:eventType", async (c) => {
    const stream = c.req.param("eventType");
    const errors: ValidationError[] = [];
    if (stream !== "combined" && !(streamNames as readonly string[]).includes(stream)) {
      errors.push({
        loc: ["path", "event_type"],
        msg: "Input should be 'incoming', 'outgoing', 'error' or 'combined'",
        type: "enum",
      });
    }
    // cattle_grid's `timeout` (seconds, a number) means nothing to our streams, but a value that
    // is no number is refused as cattle_grid refuses it (the last one counts, as in FastAPI).
    const timeout = c.req.queries("timeout")?.at(-1);
    if (timeout !== undefined && (timeout.trim() === "" || Number.isNaN(Number(timeout)))) {
      errors.push({
        loc: ["query", "timeout"],
        msg: "Input should be a valid number, unable to parse string as a number",
        type: "float_parsing",
      });
    }
    if (errors.length > 0) return sendValidationErrors(c, errors);
    const accountId = c.get("account").id;
    const lastEventId = c.req.header("last-event-id");
    let open: OpenFrames;
    let resumeFrom: string | null;
    if (stream === "combined") {
      const after = parseCombinedId(lastEventId);
      resumeFrom = after && lastEventId!;
      open = (handlers) => watchCombined(services.events, accountId, after, handlers);
    } else {
      const parsed = Number.parseInt(lastEventId ?? "", 10);
      const after = Number.isSafeInteger(parsed) && parsed >= 0 ? parsed : null;
      resumeFrom = after === null ? null : String(after);
      open = async (handlers) => {
        // Error rows are completed (a trigger's body in its first error event on this
        // connection) in the order they came, one batch after the other. Only error events:
        // an outgoing event carries its trigger_id too, and never the body.
        const sentBodies = new SentBodies();
        const complete = (rows: StoredEvent[]) =>
          stream === "error"
            ? services.events.completeForConnection(rows, sentBodies)
            : Promise.resolve(rows);
        let completing: Promise<void> = Promise.resolve();
        const watch = await services.events.watch(accountId, stream as StreamName, after, {
          onRows(rows) {
            completing = completing
              .then(async () => {
                const whole = await complete(rows);
                handlers.onFrames(whole.map((row) => ({ id: String(row.seq), data: row.data })));
              })
              .catch(handlers.onError);
          },
          onError: handlers.onError,
        });
        return { start: String(watch.start), close: watch.close };
      };
    }
    const tokenEnded = new AbortController();
    const unwatch = tokenWatch.watch(c.get("token"), () => tokenEnded.abort());
    const body = openSseStream(services, open, {
      resumeFrom,
      stream,
      accountId,
      signal: AbortSignal.any([c.req.raw.signal, tokenEnded.signal]),
      onClose: unwatch,
    });
    return new Response(body, {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        // Tell nginx-style proxies not to buffer the stream.
        "X-Accel-Buffering": "no",
      },
    });
  });
}

/** Starts following what a stream sends: frames as they come, and the id it starts after. */
export type OpenFrames = (handlers: {
  onFrames(frames: Frame[]): void;
  onError(error: unknown): void;
}) => Promise<{ start: string; close(): void }>;

/**
 * The frames of one subscriber. `resumeFrom` is the Last-Event-ID as understood; null means
 * "only what happens from now on", as cattle_grid does for a first connection (we also say which
 * id "now" is). Rows come from events.watch(), which shares one read per notification among a
 * stream's subscribers.
 */
export function openSseStream(
  services: Services,
  open: OpenFrames,
  options: {
    resumeFrom: string | null;
    /** Name the stream in the one line logged when it fails. */
    stream: string;
    accountId: number;
    /** Aborted: the stream ends (the client left, or its token ended). */
    signal?: AbortSignal;
    /** Called once when the stream ends, however it ends. */
    onClose?: () => void;
  },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let closed = false;
  let watch: { close(): void } | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;

  const close = () => {
    if (closed) return;
    closed = true;
    watch?.close();
    clearInterval(keepAlive);
    options.signal?.removeEventListener("abort", onAbort);
    options.onClose?.();
  };
  const onAbort = () => {
    close();
    try {
      controllerRef?.close();
    } catch {
      // already closed by the consumer
    }
  };
  const send = (text: string) => {
    if (!closed) controllerRef?.enqueue(encoder.encode(text));
  };

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controllerRef = controller;
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener("abort", onAbort);
      let connected = false;
      const pending: string[] = [];
      const opened = await open({
        onFrames(frames) {
          if (closed) return;
          let chunk = "";
          for (const frame of frames) chunk += `id: ${frame.id}\ndata: ${frame.data}\n\n`;
          // Rows may come before the watch is returned; they follow the opening frames.
          if (connected) send(chunk);
          else pending.push(chunk);
        },
        onError(error) {
          log.error("event stream {stream} of account {accountId} failed: {error}", {
            stream: options.stream,
            accountId: options.accountId,
            error: (error as Error)?.message ?? String(error),
          });
          onAbort();
        },
      });
      watch = opened;
      if (closed) return opened.close();
      send(": connected\n\n");
      // A client that did not know where it stood (a first connection, or an id from a replaced
      // store) is told, in a frame with an id and no data: SSE clients record the id and
      // dispatch nothing. Resuming from it later gets whatever the client had not yet stored.
      if (options.resumeFrom !== opened.start) send(`id: ${opened.start}\n\n`);
      connected = true;
      for (const chunk of pending.splice(0)) send(chunk);
      keepAlive = setInterval(() => {
        if (!closed) send(": keep-alive\n\n");
      }, services.config.keepAliveMs);
    },
    cancel() {
      close();
    },
  });
}
