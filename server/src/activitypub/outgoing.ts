import { STATUS_CODES } from "node:http";
import { Agent } from "undici";
import type { Services } from "../services.ts";
import type { Outgoing } from "./outgoing-types.ts";
import { readStart } from "./read-limited.ts";
import { pinnedLookup, resolveWithDns, type ResolveHost } from "./pinned-lookup.ts";

// The one way out of the server: every lookup hop, key fetch, WebFinger request and delivery is
// sent here, over connections whose address was checked as it was connected (pinned-lookup.ts).
// Node's global fetch cannot take such a connector, so this is undici's own Agent; requests go
// through its request() API, which builds no fetch Request, Headers or web streams (docs/adr/0010).

const DETAIL_BYTES = 4096;

export function createOutgoing(options: {
  allowPrivate: boolean;
  resolveHost?: ResolveHost;
}): Outgoing {
  const lookup = pinnedLookup(options.resolveHost ?? resolveWithDns, options.allowPrivate);
  const agent = new Agent({ connect: { lookup } });
  return {
    allowPrivate: options.allowPrivate,
    async get(url, headers, signal) {
      const answer = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers,
        signal,
      });
      return {
        status: answer.statusCode,
        statusText: STATUS_CODES[answer.statusCode] ?? "",
        headers: answer.headers,
        body: answer.body,
        discard: () => answer.body.dump(),
      };
    },
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
