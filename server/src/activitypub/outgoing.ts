import { STATUS_CODES } from "node:http";
import { Agent, fetch, type Response } from "undici";
import type { Services } from "../services.ts";
import { readStart } from "./read-limited.ts";
import { pinnedLookup, resolveWithDns, type ResolveHost } from "./pinned-lookup.ts";

// The one way out of the server: every lookup hop, key fetch, WebFinger request and delivery is
// sent here, over connections whose address was checked as it was connected (pinned-lookup.ts).
// Node's global fetch cannot take such a connector, so this is undici's own fetch and Agent.

export interface Outgoing {
  /** Whether loopback and private networks may be reached (--allow-private-addresses). */
  readonly allowPrivate: boolean;
  /** Sends `request` with `body` as its bytes; redirects are returned, not followed. */
  send(request: Request, body: Uint8Array | null, signal: AbortSignal): Promise<Response>;
  /**
   * POSTs `body` with exactly `headers`, over a kept-alive connection to the URL's origin (the
   * delivery path: no Request or Response objects). Redirects are answers, not followed; the
   * answer's body is read only for an error's first 4 KiB.
   */
  post(
    url: URL,
    headers: Record<string, string>,
    body: Uint8Array,
    signal: AbortSignal,
  ): Promise<Answer>;
  close(): Promise<void>;
  /** The addresses a name resolves to, as connections resolve it (a host check's first step). */
  resolve?(hostname: string): Promise<string[]>;
}

/** A POST's answer: its status and, unless 2xx, the start of its body. */
export interface Answer {
  status: number;
  statusText: string;
  detail: string;
  /** The Retry-After header of an error answer, as sent. */
  retryAfter?: string;
}

const DETAIL_BYTES = 4096;

export function createOutgoing(options: {
  allowPrivate: boolean;
  resolveHost?: ResolveHost;
}): Outgoing {
  const lookup = pinnedLookup(options.resolveHost ?? resolveWithDns, options.allowPrivate);
  const agent = new Agent({ connect: { lookup } });
  return {
    allowPrivate: options.allowPrivate,
    send: (request, body, signal) =>
      fetch(request.url, {
        method: request.method,
        headers: [...request.headers],
        body,
        redirect: "manual",
        signal,
        dispatcher: agent,
      }),
    async post(url, headers, body, signal) {
      const answer = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers,
        body,
        signal,
      });
      const status = answer.statusCode;
      const statusText = STATUS_CODES[status] ?? "";
      if (status >= 200 && status < 300) {
        await answer.body.dump();
        return { status, statusText, detail: "" };
      }
      const retryAfter = answer.headers["retry-after"];
      return {
        status,
        statusText,
        detail: await readStart(answer.body, DETAIL_BYTES),
        ...(typeof retryAfter === "string" ? { retryAfter } : {}),
      };
    },
    close: () => agent.close(),
    resolve: (hostname) => (options.resolveHost ?? resolveWithDns)(hostname),
  };
}

const made = new WeakMap<Services, Outgoing>();

/** The server's Outgoing; for Services built by hand (tests), one made from the config once. */
export function outgoingOf(services: Services): Outgoing {
  if (services.outgoing) return services.outgoing;
  let outgoing = made.get(services);
  if (!outgoing) {
    outgoing = createOutgoing({ allowPrivate: services.config.allowPrivateAddresses });
    made.set(services, outgoing);
  }
  return outgoing;
}
