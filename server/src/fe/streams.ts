// GET /account/stream/{incoming|outgoing|error}: Server-Sent Events. Frames are
// `id: N`, `data: <one line of JSON>`, blank line. A reconnect with Last-Event-ID gets every
// stored event after N, so a dropped connection or a restart loses nothing; live events arrive
// through the bus (no polling), and a `: keep-alive` comment keeps idle connections open. A
// stream ends within a second or two of its token (sign-out, revoke-tokens, a new password,
// expiry), whichever process ended it (accounts/token-watch.ts).

import { getLogger } from "@logtape/logtape";
import { Hono } from "hono";
import type { StreamName, ValidationError } from "./wire.ts";
import { streamNames } from "./wire.ts";
import { tokenWatchOf } from "../accounts/index.ts";
import { SentBodies } from "../events/index.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendValidationErrors } from "./errors.ts";

const log = getLogger(["corral", "events"]);

export function createStreamRoutes(services: Services) {
  return new Hono<FeEnv>().get("/account/stream/:eventType", async (c) => {
    const stream = c.req.param("eventType");
    const errors: ValidationError[] = [];
    if (!(streamNames as readonly string[]).includes(stream)) {
      errors.push({
        loc: ["path", "event_type"],
        msg: "Input should be 'incoming', 'outgoing' or 'error'",
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
    const lastEventId = Number.parseInt(c.req.header("last-event-id") ?? "", 10);
    const accountId = c.get("account").id;
    const tokenEnded = new AbortController();
    const unwatch = tokenWatchOf(services).watch(c.get("token"), () => tokenEnded.abort());
    const body = openSseStream(services, accountId, stream as StreamName, {
      after: Number.isSafeInteger(lastEventId) && lastEventId >= 0 ? lastEventId : null,
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

/**
 * The frames of one subscriber. `after` is the Last-Event-ID; null means "only what happens from
 * now on", as cattle_grid does for a first connection (we also say which id "now" is). Rows come
 * from events.watch(), which shares one read per notification among a stream's subscribers.
 */
export function openSseStream(
  services: Services,
  accountId: number,
  stream: StreamName,
  options: {
    after: number | null;
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
      // Rows are completed (a trigger's body in its first error event on this connection) in
      // the order they came, one batch after the other.
      const sentBodies = new SentBodies();
      let completing: Promise<void> = Promise.resolve();
      const fail = (error: unknown) => {
        log.error("event stream {stream} of account {accountId} failed: {error}", {
          stream,
          accountId,
          error: (error as Error)?.message ?? String(error),
        });
        onAbort();
      };
      const opened = await services.events.watch(accountId, stream, options.after, {
        onRows(rows) {
          completing = completing
            .then(async () => {
              if (closed) return;
              const whole = await services.events.completeForConnection(rows, sentBodies);
              let chunk = "";
              for (const row of whole) chunk += `id: ${row.seq}\ndata: ${row.data}\n\n`;
              // Rows may come before the watch is returned; they follow the opening frames.
              if (connected) send(chunk);
              else pending.push(chunk);
            })
            .catch(fail);
        },
        onError: fail,
      });
      watch = opened;
      if (closed) return opened.close();
      send(": connected\n\n");
      // A client that did not know where it stood (a first connection, or an id from a replaced
      // store) is told, in a frame with an id and no data: SSE clients record the id and
      // dispatch nothing. Resuming from it later gets whatever the client had not yet stored.
      if (options.after !== opened.start) send(`id: ${opened.start}\n\n`);
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
