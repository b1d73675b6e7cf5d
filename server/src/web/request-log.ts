// One structured line per HTTP request: method, path, status, milliseconds, client address.
// Never the query string (it may carry a token), headers, or bodies.

import { getLogger } from "@logtape/logtape";
import { createMiddleware } from "hono/factory";

const logger = getLogger(["corral", "http"]);

/** The line of one answered request; `started` is its performance.now() on arrival. */
export function logRequest(
  method: string,
  path: string,
  status: number,
  started: number,
  client: string | null,
): void {
  const ms = Math.round((performance.now() - started) * 10) / 10;
  logger.info("{method} {path} {status} {ms} ms", { method, path, status, ms, client });
}

export const requestLog = createMiddleware(async (c, next) => {
  const started = performance.now();
  let status = 500;
  try {
    await next();
    status = c.res.status;
  } finally {
    logRequest(c.req.method, c.req.path, status, started, clientAddress(c.env));
  }
});

function clientAddress(env: unknown): string | null {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming;
  return incoming?.socket?.remoteAddress ?? null;
}
