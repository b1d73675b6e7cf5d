// GET /account/stream/{incoming|outgoing|error}: Server-Sent Events. Frames are
// `id: N`, `data: <one line of JSON>`, blank line. A reconnect with Last-Event-ID gets every
// stored event after N, so a dropped connection or a restart loses nothing; live events arrive
// through the bus (no polling), and a `: keep-alive` comment keeps idle connections open. Each
// keep-alive re-reads the token from the database: a stream ends with its token (sign-out,
// revoke-tokens, a new password, expiry), whichever process ended it.

import { Hono } from "hono";
import type { StreamName } from "./wire.ts";
import { streamNames } from "./wire.ts";
import { checkToken } from "../accounts/index.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendValidationErrors } from "./errors.ts";

const pageSize = 500;

export function createStreamRoutes(services: Services) {
  return new Hono<FeEnv>().get("/account/stream/:eventType", async (c) => {
    const stream = c.req.param("eventType");
    if (!(streamNames as readonly string[]).includes(stream)) {
      return sendValidationErrors(c, [
        {
          loc: ["path", "event_type"],
          msg: "Input should be 'incoming', 'outgoing' or 'error'",
          type: "enum",
        },
      ]);
    }
    const lastEventId = Number.parseInt(c.req.header("last-event-id") ?? "", 10);
    const accountId = c.get("account").id;
    const token = c.get("token");
    const body = openSseStream(services, accountId, stream as StreamName, {
      after: Number.isSafeInteger(lastEventId) && lastEventId >= 0 ? lastEventId : null,
      signal: c.req.raw.signal,
      // Checked in the database, so a sign-out or revoke-tokens in any process ends the stream.
      stillValid: async () => {
        const check = await checkToken(services.db, token);
        return check.ok && check.account.id === accountId;
      },
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
 * now on", as cattle_grid does for a first connection (we also say which id "now" is).
 */
export function openSseStream(
  services: Services,
  accountId: number,
  stream: StreamName,
  options: {
    after: number | null;
    signal?: AbortSignal;
    /** Asked at every keep-alive: false (the token ended or expired) closes the stream. */
    stillValid?: () => Promise<boolean>;
  },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lastSent = 0;
  let closed = false;
  let pumping = false;
  let again = false;
  let unsubscribe = () => {};
  let keepAlive: ReturnType<typeof setInterval> | undefined;

  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(keepAlive);
    options.signal?.removeEventListener("abort", onAbort);
  };
  const onAbort = () => {
    close();
    try {
      controllerRef?.close();
    } catch {
      // already closed by the consumer
    }
  };
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;

  // Reads the store from lastSent on until it is drained. A notification arriving meanwhile
  // sets `again`; whoever finishes a read checks it (also after the loop, since a notification
  // can land between the loop's last check and the end of the read), so nothing is left behind.
  const pump = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    again = false;
    drain(controller)
      .catch((error) => {
        console.error(`event stream ${stream} of account ${accountId} failed:`, error);
        onAbort();
      })
      .finally(() => {
        pumping = false;
        if (again && !closed) pump(controller);
      });
  };

  const drain = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    let rows;
    do {
      rows = await services.events.readAfter(accountId, stream, lastSent, pageSize);
      if (closed || rows.length === 0) return;
      let chunk = "";
      for (const row of rows) chunk += `id: ${row.seq}\ndata: ${row.data}\n\n`;
      lastSent = rows[rows.length - 1]!.seq;
      controller.enqueue(encoder.encode(chunk));
    } while (rows.length === pageSize);
  };

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controllerRef = controller;
      options.signal?.addEventListener("abort", onAbort);
      // Subscribe before reading where to start, so no event falls between the two.
      unsubscribe = services.events.subscribe((message) => {
        if (
          message.accountId === accountId &&
          message.stream === stream &&
          message.seq > lastSent &&
          !closed
        ) {
          pump(controller);
        }
      });
      const newest = await services.events.lastSeq(accountId, stream);
      // An id from the future means the store was replaced: everything it holds is new.
      lastSent = options.after === null ? newest : options.after > newest ? 0 : options.after;
      controller.enqueue(encoder.encode(": connected\n\n"));
      // A client that did not know where it stood (a first connection, or an id from a replaced
      // store) is told, in a frame with an id and no data: SSE clients record the id and
      // dispatch nothing. Resuming from it later gets whatever the client had not yet stored.
      if (options.after !== lastSent) controller.enqueue(encoder.encode(`id: ${lastSent}\n\n`));
      keepAlive = setInterval(() => {
        if (closed) return;
        controller.enqueue(encoder.encode(": keep-alive\n\n"));
        options.stillValid?.().then(
          (valid) => valid || onAbort(),
          () => {}, // a database hiccup is not a sign-out: the next tick asks again
        );
      }, services.config.keepAliveMs);
      pump(controller);
    },
    cancel() {
      close();
    },
  });
}
