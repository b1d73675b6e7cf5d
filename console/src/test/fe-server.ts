// A real HTTP server on 127.0.0.1 that stands in for /fe in component tests: the fe-client talks
// to it over the loopback exactly as it talks to the real server, nothing is mocked in between.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type FeCall = {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
  /** Values of the `:name` segments of the route that answered, e.g. `{id: "t-1"}`. */
  params: Record<string, string>;
};

/**
 * A JSON answer (with extra `headers` if given), or (with `events`) an open text/event-stream that
 * first sends those events.
 */
export type FeAnswer = {
  status: number;
  body?: unknown;
  events?: unknown[];
  headers?: Record<string, string>;
};
export type FeHandler = (call: FeCall) => FeAnswer | Promise<FeAnswer>;
/**
 * Keyed by "METHOD /path" relative to /fe, e.g. "POST /signin"; a segment `:name` matches any one
 * segment ("GET /actor/triggers/:id"). An exact key wins over a pattern.
 */
export type FeRoutes = Record<string, FeHandler>;

export type FeServer = {
  /** Base URL to hand to setFeBaseUrl, ending in /fe. */
  url: string;
  /** Every call received, in order. */
  calls: FeCall[];
  close: () => Promise<void>;
};

export async function startFeServer(routes: FeRoutes): Promise<FeServer> {
  const calls: FeCall[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const path = url.pathname.replace(/^\/fe/, "");
    const call: FeCall = {
      method: request.method ?? "GET",
      path,
      query: url.searchParams,
      authorization: request.headers.authorization,
      contentType: request.headers["content-type"],
      body: await readBody(request),
      params: {},
    };
    calls.push(call);
    const handler = findHandler(routes, call);
    const answer = handler ? await handler(call) : { status: 404, body: { detail: "Not Found" } };
    if (answer.events) {
      // Held open like a real stream; close() ends it.
      response.writeHead(answer.status, { "Content-Type": "text/event-stream" });
      answer.events.forEach((event, index) => {
        response.write(`id: ${index + 1}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      return;
    }
    if (answer.body === undefined) {
      response.writeHead(answer.status, answer.headers).end();
      return;
    }
    response
      .writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers })
      .end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/fe`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function findHandler(routes: FeRoutes, call: FeCall): FeHandler | undefined {
  const exact = routes[`${call.method} ${call.path}`];
  if (exact) return exact;
  const segments = call.path.split("/");
  for (const [key, handler] of Object.entries(routes)) {
    const [method, pattern] = key.split(" ");
    const parts = pattern.split("/");
    if (method !== call.method || parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, index) => {
      if (!part.startsWith(":")) return part === segments[index];
      params[part.slice(1)] = decodeURIComponent(segments[index]);
      return segments[index] !== "";
    });
    if (matches) {
      call.params = params;
      return handler;
    }
  }
  return undefined;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}
