import { getLogger } from "@logtape/logtape";
import type { IncomingMessage, ServerResponse } from "node:http";
import { observeInbox } from "../metrics/observe.ts";
import type { Services } from "../services.ts";
import { logRequest } from "../web/request-log.ts";
import { securityHeaderValues } from "../web/security-headers.ts";
import {
  handleInbox,
  inboxClient,
  MAX_INBOX_BODY_BYTES,
  type InboxAnswer,
  type InboxRequest,
} from "./inbox.ts";

const log = getLogger(["corral", "http"]);

// Inbox POSTs straight from Node's HTTP server, before Hono: those inbox-connection.ts leaves to
// Node (spelt unusually; on a connection that began with another request). Under load they were
// nearly every request, and building a fetch Request, a Response and Hono's context for each cost
// an eighth of the inbox's CPU (0.21 -> 0.18 ms per activity in paired runs). Only the plain
// spellings are taken here (`/inbox`, `/actor/{id}/inbox` on a plain lower-case host); anything
// else, a percent-encoded path for one, goes on to Hono, whose inbox route does the same through
// inbox.ts. What a request gets is the same either way: the request line in the log, the security
// headers, the inbox metric, 500 on a failure.

const sharedInbox = /^\/inbox(?:\?|$)/;
const actorInbox = /^\/actor\/[A-Za-z0-9_-]+\/inbox(?:\?|$)/;
/** A Host that URL would keep as it is: lower case, any port but the default (others → Hono). */
const plainHost = /^[a-z0-9._-]+(?::([1-9]\d{0,4}))?$/;
const isPlainHost = (host: string) => {
  const match = plainHost.exec(host);
  if (!match) return false;
  const port = match[1] === undefined ? undefined : Number(match[1]);
  return port === undefined || (port !== 80 && port <= 65535);
};

const headerPairs = (extra: Record<string, string>) =>
  Object.entries({ ...securityHeaderValues, ...extra }).flat();
const acceptedHeaders = headerPairs({ "Content-Length": "0" });

/** Where an inbox POST goes: its path (for the log), its whole URL, the actor (null: shared). */
export interface InboxTarget {
  path: string;
  url: string;
  actorId: string | null;
}

/** Answers inbox requests, from Node's HTTP server or from inbox-connection.ts. */
export interface InboxListener {
  /** Answers the request if it is an inbox POST (true), or leaves it alone (false). */
  (req: IncomingMessage, res: ServerResponse): boolean;
  /** The inbox the request-target names on `host`, or undefined: not an inbox, or unusual. */
  target(target: string, host: string | undefined): InboxTarget | undefined;
  /**
   * Answers an inbox POST read by other means (inbox-connection.ts): `write` sends the answer;
   * the log line, the metric and a 500 for a failure are as for Node's requests.
   */
  answer(
    request: InboxRequest,
    target: InboxTarget,
    peer: string | undefined,
    write: (answer: InboxAnswer) => void,
  ): Promise<void>;
}

export function createInboxListener(services: Services): InboxListener {
  // Which scheme each host's base URL has (behind a TLS-terminating proxy requests arrive as
  // http://, but actor ids, and so signatures over the URL, use the base URL's).
  let schemesFor: readonly string[] | undefined;
  let schemes = new Map<string, string>();
  const schemeOf = (host: string) => {
    if (schemesFor !== services.config.baseUrls) {
      schemesFor = services.config.baseUrls;
      schemes = new Map(
        schemesFor.map((base) => {
          const url = new URL(base);
          return [url.host, url.protocol.slice(0, -1)];
        }),
      );
    }
    return schemes.get(host) ?? "http";
  };

  const target = (target: string, host: string | undefined): InboxTarget | undefined => {
    const shared = sharedInbox.test(target);
    if (!shared && !actorInbox.test(target)) return undefined;
    if (host === undefined || !isPlainHost(host)) return undefined;
    const query = target.indexOf("?");
    const path = query < 0 ? target : target.slice(0, query);
    const origin = `${schemeOf(host)}://${host}`;
    const actorId = shared ? null : `${origin}${path.slice(0, -"/inbox".length)}`;
    return { path, url: `${origin}${target}`, actorId };
  };

  const answer = (
    request: InboxRequest,
    { path, actorId }: InboxTarget,
    peer: string | undefined,
    write: (answer: InboxAnswer) => void,
  ): Promise<void> => {
    const started = performance.now();
    request.client = () =>
      inboxClient(peer, request.headers.get("X-Forwarded-For"), services.config.trustProxy);
    let written = false;
    const send = (answer: InboxAnswer) => {
      written = true;
      write(answer);
      logRequest("POST", path, answer.status, started, peer ?? null);
    };
    return observeInbox(services, handleInbox(services, request, actorId))
      .then(send, (error: unknown) => {
        log.error("POST {path} failed: {error}", {
          path,
          error: (error as Error)?.message ?? String(error),
          stack: (error as Error)?.stack,
        });
        if (!written) send({ status: 500, detail: "Internal Server Error" });
      })
      .catch((error: unknown) =>
        log.error("POST {path}: answering failed: {error}", {
          path,
          error: (error as Error)?.message ?? String(error),
        }),
      );
  };

  const listener = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "POST") return false;
    const found = target(req.url ?? "", req.headers.host);
    if (!found) return false;
    const request = nodeInboxRequest(req, found.url);
    void answer(request, found, req.socket.remoteAddress, (answer) => {
      if (res.headersSent) return void res.destroy();
      if (answer.detail === undefined) res.writeHead(answer.status, acceptedHeaders).end();
      else {
        const body = JSON.stringify({ detail: answer.detail });
        const headers: Record<string, string> = {
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
        };
        // A body too large may still be arriving: the connection ends rather than read it all.
        if (answer.status === 413) headers.Connection = "close";
        res.writeHead(answer.status, headerPairs(headers)).end(body);
      }
    });
    return true;
  };
  return Object.assign(listener, { target, answer });
}

/** Node's request as the inbox reads it: headers as fetch joins them, the body up to the limit. */
function nodeInboxRequest(req: IncomingMessage, url: string): InboxRequest {
  // req.headers drops repeats of Host and a few others; headersDistinct keeps every value, but
  // costs an array per header, so it is read only when some name does come twice.
  const once = req.rawHeaders.length === 2 * Object.keys(req.headers).length;
  const value = once
    ? (name: string) => {
        const found = req.headers[name.toLowerCase()];
        return found === undefined ? null : Array.isArray(found) ? found.join(", ") : found;
      }
    : (name: string) => req.headersDistinct[name.toLowerCase()]?.join(", ") ?? null;
  return {
    method: "POST",
    url,
    headers: {
      get: value,
      has: (name) => value(name) !== null,
      forEach(each) {
        for (const [name, values] of Object.entries(req.headersDistinct))
          if (values) each(values.join(", "), name);
      },
    },
    body: () =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        req.on("data", (chunk: Buffer) => {
          if (size > MAX_INBOX_BODY_BYTES) return; // already answered: the rest is dropped
          size += chunk.byteLength;
          if (size > MAX_INBOX_BODY_BYTES) resolve(null);
          else chunks.push(chunk);
        });
        req.on("end", () => {
          if (size <= MAX_INBOX_BODY_BYTES)
            resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        });
        req.on("error", reject);
        req.on("close", () => {
          if (!req.complete) reject(new Error("the request was aborted before its body ended"));
        });
      }),
  };
}
