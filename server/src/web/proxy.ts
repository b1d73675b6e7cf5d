// Proxy mode: /fe/* goes to a real cattle_grid. Status and headers pass through; bodies are
// streamed, so an event stream reaches the browser frame by frame. Two answers wait until the
// upstream shows what it said it did (docs/cattle-grid-differences.md#writes-answered-before-they-are-committed):
// a sign-in's token, and a created actor.

import type { Context } from "hono";
import { getLogger } from "@logtape/logtape";

const log = getLogger(["corral", "proxy"]);

// Hop-by-hop headers (RFC 9110 §7.6.1) and those fetch rewrites (it decompresses bodies).
const dropRequest = [
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "te",
  "content-length",
];
const dropResponse = [
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-encoding",
  "content-length",
];

export function createProxyHandler(upstream: string) {
  return async (c: Context) => {
    const incoming = new URL(c.req.url);
    const target = `${upstream}${incoming.pathname}${incoming.search}`;
    const headers = new Headers(c.req.raw.headers);
    for (const name of dropRequest) headers.delete(name);
    const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD";
    let response: Response;
    try {
      response = await fetch(target, {
        method: c.req.method,
        headers,
        body: hasBody ? c.req.raw.body : undefined,
        redirect: "manual",
        signal: c.req.raw.signal,
        // Streams the request body instead of buffering it (required by Node's fetch).
        ...(hasBody ? { duplex: "half" } : {}),
      } as RequestInit);
    } catch (error) {
      const reason =
        (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      return c.json({ detail: `Upstream ${upstream} is unreachable: ${reason}` }, 502);
    }
    const responseHeaders = new Headers(response.headers);
    for (const name of dropResponse) responseHeaders.delete(name);
    const settle = c.req.method === "POST" ? settles[incoming.pathname] : undefined;
    if (settle && response.status === settle.status) {
      const text = await response.text();
      const unsettled = await settle.wait(upstream, c.req.header("authorization"), text);
      if (unsettled) return c.json({ detail: unsettled }, 502);
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: responseHeaders,
      });
    }
    if (responseHeaders.get("content-type")?.startsWith("text/event-stream")) {
      responseHeaders.set("X-Accel-Buffering", "no");
      responseHeaders.set("Cache-Control", "no-cache, no-transform");
    }
    const body = response.body && endQuietlyOnAbort(response.body, c.req.raw.signal);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: responseHeaders,
    });
  };
}

/**
 * The upstream body, except that the browser going away (which aborts the upstream fetch) ends
 * it instead of failing it: a closed event stream is routine, not an error to log.
 */
function endQuietlyOnAbort(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        if (signal.aborted) controller.close();
        else controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

// cattle_grid 0.5.22 commits some writes after its answer is sent (FastAPI closes a request's
// database session once the response is out), so a client that acts on the answer at once can
// find a token refused (401) or an actor unknown to its account (400 on a trigger or lookup).
// The console does act at once, so the proxy answers these writes once the upstream shows them.
const SETTLE_MS = 5_000;

interface Settle {
  /** The upstream status whose answer waits. */
  status: number;
  /** Resolves when the upstream shows the write: null, or why the answer would not be true. */
  wait(upstream: string, authorization: string | undefined, body: string): Promise<string | null>;
}

const settles: Record<string, Settle> = {
  "/fe/signin": {
    status: 200,
    async wait(upstream, _authorization, body) {
      const token = jsonField(body, "token");
      if (!token) return null;
      // What the upstream last said of the token: a refusal, or another answer, or none at all.
      let last = "no answer";
      const seen = await until(async () => {
        const info = await accountInfo(upstream, `Bearer ${token}`).catch((error: Error) => {
          last = `no answer (${error.message})`;
          return null;
        });
        if (info && !info.ok) last = `${info.status}`;
        return info?.ok === true;
      });
      if (seen) return null;
      const later = `${SETTLE_MS / 1000} s later`;
      return last === "401" || last === "403"
        ? `Upstream ${upstream} answered the sign-in, but still refused its token ${later}`
        : `Upstream ${upstream} answered the sign-in, but its /fe/account/info gave ${last} for the token ${later}`;
    },
  },
  "/fe/account/create": {
    status: 201,
    async wait(upstream, authorization, body) {
      const id = jsonField(body, "id");
      if (!id || !authorization) return null;
      const seen = await until(async () =>
        listed(await accountInfo(upstream, authorization)).some((actor) => actor.id === id),
      );
      // The upstream said it created the actor; should it not list it yet, its word stands (the
      // console's Info shows the actor once it does).
      if (!seen)
        log.warn("Upstream {upstream} created {id} but did not list it within {ms} ms", {
          upstream,
          id,
          ms: SETTLE_MS,
        });
      return null;
    },
  },
};

/** Polls `check` (20 ms, growing to 200 ms) until it holds or SETTLE_MS have passed. */
async function until(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + SETTLE_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 200)) {
    if (await check().catch(() => false)) return true;
    if (Date.now() + pause > deadline) return false;
    await new Promise((done) => setTimeout(done, pause));
  }
}

type AccountInfo = { actors?: { id?: unknown }[] };

type InfoAnswer = { ok: true; info: AccountInfo } | { ok: false; status: number };

/** The upstream's /fe/account/info for a bearer: its body, or the status of any other answer. */
async function accountInfo(upstream: string, authorization: string): Promise<InfoAnswer> {
  const response = await fetch(`${upstream}/fe/account/info`, {
    headers: { Authorization: authorization, Accept: "application/json" },
    signal: AbortSignal.timeout(2_000),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    return { ok: false, status: response.status };
  }
  return { ok: true, info: (await response.json()) as AccountInfo };
}

const listed = (answer: InfoAnswer) => (answer.ok ? (answer.info.actors ?? []) : []);

function jsonField(body: string, name: string): string | null {
  try {
    const value = (JSON.parse(body) as Record<string, unknown>)[name];
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}
