// Proxy mode: /fe/* goes to a real cattle_grid. Status and headers pass through; bodies are
// streamed, so an event stream reaches the browser frame by frame.

import type { Context } from "hono";

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
