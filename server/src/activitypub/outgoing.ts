import { Agent, fetch, type Response } from "undici";
import type { Services } from "../services.ts";
import { pinnedLookup, resolveWithDns, type ResolveHost } from "./pinned-lookup.ts";

// The one way out of the server: every lookup hop, key fetch, WebFinger request and delivery is
// sent here, over connections whose address was checked as it was connected (pinned-lookup.ts).
// Node's global fetch cannot take such a connector, so this is undici's own fetch and Agent.

export interface Outgoing {
  /** Whether loopback and private networks may be reached (--allow-private-addresses). */
  readonly allowPrivate: boolean;
  /** Sends `request` with `body` as its bytes; redirects are returned, not followed. */
  send(request: Request, body: Uint8Array | null, signal: AbortSignal): Promise<Response>;
  close(): Promise<void>;
}

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
    close: () => agent.close(),
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
