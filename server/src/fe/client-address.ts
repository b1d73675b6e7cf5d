import { isIP } from "node:net";
import type { Context } from "hono";

// Who is asking, for sign-in throttling. Without --trust-proxy: the connection's peer, and
// X-Forwarded-For is ignored (anyone can write it). With it, the peer is our reverse proxy and
// the last X-Forwarded-For address is the one the proxy saw; addresses left of it were written
// by whoever connected to the proxy and are not believed.

export function clientAddress(c: Context, trustProxy: boolean): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress ?? "unknown";
  if (!trustProxy) return peer;
  const last = (c.req.header("x-forwarded-for") ?? "").split(",").at(-1)?.trim() ?? "";
  return isIP(last) !== 0 ? last : peer;
}
