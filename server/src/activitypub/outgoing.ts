import { STATUS_CODES } from "node:http";
import { Agent, type Dispatcher } from "undici";
import type { Services } from "../services.ts";
import type { Answer, Outgoing } from "./outgoing-types.ts";
import { pinnedLookup, resolveWithDns, type ResolveHost } from "./pinned-lookup.ts";
import { backendVersion } from "../version.ts";

// The one way out of the server: every lookup hop, key fetch, WebFinger request and delivery is
// sent here, over connections whose address was checked as it was connected (pinned-lookup.ts).
// Node's global fetch cannot take such a connector, so this is undici's own Agent, without fetch's
// Request, Headers or web streams: GETs through its request(), deliveries through its dispatch()
// (postWith(); docs/adr/0010).

const DETAIL_BYTES = 4096;

function userAgentOf(site: string | undefined): string {
  return site ? `Corral/${backendVersion} (+${site})` : `Corral/${backendVersion}`;
}

export function createOutgoing(options: {
  allowPrivate: boolean;
  resolveHost?: ResolveHost;
  /** This server's address, read when a request is made (it may follow the port bound). */
  site?: () => string | undefined;
}): Outgoing {
  const lookup = pinnedLookup(options.resolveHost ?? resolveWithDns, options.allowPrivate);
  const agent = new Agent({ connect: { lookup } });
  return {
    allowPrivate: options.allowPrivate,
    userAgent: () => userAgentOf(options.site?.()),
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
    post: (url, headers, body, signal) => postWith(agent, url, headers, body, signal),
    close: () => agent.close(),
    resolve: (hostname) => (options.resolveHost ?? resolveWithDns)(hostname),
  };
}

/**
 * A POST through the Agent's dispatch() with a handler of our own: request() would wrap each
 * answer in a promise and a Readable body that a delivery only drains (about a quarter of the
 * main thread's HTTP work per delivery, issue 34). A 2xx answer's body is dropped as it arrives;
 * another's first DETAIL_BYTES are kept for the operator, and the rest is not read.
 */
function postWith(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: Uint8Array,
  signal: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let statusText = "";
    let retryAfter: string | undefined;
    const detail: Buffer[] = [];
    let detailBytes = 0;
    let controller: Dispatcher.DispatchController | undefined;
    const abort = () => controller?.abort(signal.reason as Error);
    const settle = () => signal.removeEventListener("abort", abort);
    const answer = (): Answer => ({
      status,
      statusText,
      detail: Buffer.concat(detail).subarray(0, DETAIL_BYTES).toString("utf8"),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    });
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    agent.dispatch(
      { origin: url.origin, path: `${url.pathname}${url.search}`, method: "POST", headers, body },
      {
        onRequestStart(started) {
          controller = started;
          if (signal.aborted) abort();
        },
        onResponseStart(_, statusCode, answerHeaders, statusMessage) {
          status = statusCode;
          statusText = STATUS_CODES[statusCode] ?? statusMessage ?? "";
          const header = answerHeaders["retry-after"];
          if (!ok(statusCode) && typeof header === "string") retryAfter = header;
        },
        onResponseData(started, chunk) {
          if (ok(status)) return;
          detail.push(chunk);
          detailBytes += chunk.byteLength;
          // Enough for the operator: the rest is not read (the connection goes with it).
          if (detailBytes >= DETAIL_BYTES) {
            settle();
            resolve(answer());
            started.abort(new Error("the rest of the answer is not read"));
          }
        },
        onResponseEnd() {
          settle();
          resolve(answer());
        },
        onResponseError(_, error) {
          settle();
          // After a resolve (an error answer cut short), this rejection is ignored.
          reject(error);
        },
      },
    );
  });
}

const ok = (status: number) => status >= 200 && status < 300;

const made = new WeakMap<Services, Outgoing>();

/** The server's Outgoing; for Services built by hand (tests), one made from the config once. */
export function outgoingOf(services: Services): Outgoing {
  if (services.outgoing) return services.outgoing;
  let outgoing = made.get(services);
  if (!outgoing) {
    outgoing = createOutgoing({
      allowPrivate: services.config.allowPrivateAddresses,
      site: () => services.config.baseUrls[0],
    });
    made.set(services, outgoing);
  }
  return outgoing;
}
