// Composition only: which requests go where. Inbox POSTs → federation/inbox-connection.ts, before
// Node's HTTP parser, else federation/inbox-listener.ts, before Hono (unusual spellings of the path
// → federation/inbox.ts through Hono); /healthz and /readyz → web/health.ts; /fe → the account API;
// stored objects → federation/object-route.ts; ActivityPub GETs (actors, collections, WebFinger,
// NodeInfo) → Fedify; the rest → the console.

import { getLogger } from "@logtape/logtape";
import type { RequestListener } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono, type Context, type Next } from "hono";
import { createSignInThrottle, type SignInThrottle } from "./accounts/index.ts";
import type { BrokerState } from "./broker/connection.ts";
import type { Config } from "./config.ts";
import { createFeApp } from "./fe/index.ts";
import { handleInbox, inboxClient, inboxRequestOf, inboxResponse } from "./federation/inbox.ts";
import { createInboxListener, type InboxListener } from "./federation/inbox-listener.ts";
import { handleObjectRequest } from "./federation/object-route.ts";
import type { Services } from "./services.ts";
import { observeInbox } from "./metrics/observe.ts";
import { countSignInFailures, serveMetrics } from "./web/metrics.ts";
import { brokerNotReady, createHealthRoutes } from "./web/health.ts";
import { warnOfIgnoredForwarding } from "./web/forwarded-warning.ts";
import { createProxyHandler } from "./web/proxy.ts";
import { createRabbitMqRoutes } from "./web/rabbitmq.ts";
import { createRecordedRoutes } from "./web/recorded-routes.ts";
import type { UpstreamAccounts } from "./web/upstream-account.ts";
import type { Recorder } from "./recording/recorder.ts";
import { requestLog } from "./web/request-log.ts";
import { securityHeaders } from "./web/security-headers.ts";
import { createConsoleHandler } from "./web/static.ts";

const log = getLogger(["corral", "http"]);

/**
 * The HTTP server's listener: inbox POSTs go straight to federation/inbox-listener.ts (nearly all
 * the traffic under load, and cheapest without a fetch Request); every other request to Hono.
 */
export function createListener(
  services: Services,
  options: AppOptions = {},
): RequestListener & { inbox: InboxListener } {
  const inbox = createInboxListener(services);
  const rest = getRequestListener(createApp(services, options).fetch);
  const trustProxy = services.config.trustProxy;
  const listener: RequestListener = (req, res) => {
    warnOfIgnoredForwarding(req.headers, trustProxy);
    if (!inbox(req, res)) void rest(req, res);
  };
  return Object.assign(listener, { inbox });
}

export interface AppOptions {
  throttle?: SignInThrottle;
  /** Cattle Drive over AMQP's broker connection, when served: down means not ready. */
  amqp?: { state(): BrokerState };
}

export function createApp(services: Services, options: AppOptions = {}) {
  const app = new Hono();
  app.onError((error, c) => {
    log.error("{method} {path} failed: {error}", {
      method: c.req.method,
      path: c.req.path,
      error: error.message,
      stack: error.stack,
    });
    return c.json({ detail: "Internal Server Error" }, 500);
  });
  app.use(requestLog);
  app.use(securityHeaders);
  app.get("/metrics", (c) => serveMetrics(services, c));
  app.post("/fe/signin", countSignInFailures(services));
  const amqp = options.amqp;
  app.route(
    "/",
    createHealthRoutes(services.db, {
      ready: true,
      notReady: amqp ? () => brokerNotReady("Cattle Drive over AMQP", amqp.state()) : undefined,
    }),
  );
  app.route("/fe", createFeApp(services, options));
  app.route(
    "/",
    createRabbitMqRoutes(services, options.throttle ?? createSignInThrottle(services.db)),
  );
  // A mounted app's notFound is never reached (Hono asks only the top app's): answer unknown
  // /fe paths here, in FastAPI's JSON, before federation and the console see them.
  app.all("/fe/*", (c) => c.json({ detail: "Not Found" }, 404));
  app.post("*", (c, next) => routeInbox(services, c, next));
  app.get("/objects/:id", (c) =>
    handleObjectRequest(services, toBaseUrlRequest(services, c.req.raw)),
  );
  // An inbox takes POSTs only; a GET is told so (405 and Allow, as Mastodon answers), not 404.
  app.on(["GET", "HEAD"], ["/inbox", "/actor/:id/inbox"], (c) =>
    c.json({ detail: "An inbox takes POST only" }, 405, { Allow: "POST" }),
  );
  app.use((c, next) => routeFederation(services, c, next));
  app.get("*", createConsoleHandler(services.config.consoleDir));
  return app;
}

/** `--role worker`: background work only; HTTP answers /healthz and nothing else. */
export function createWorkerApp(services: Services) {
  const app = new Hono();
  app.route("/", createHealthRoutes(services.db, { ready: false }));
  app.notFound((c) =>
    c.json({ detail: "This process is a worker: it answers only /healthz" }, 404),
  );
  return app;
}

/** Proxy mode with --upstream-amqp: the recorded history and what it needs. */
export interface ProxyRecording {
  services: Services;
  recorder: Recorder;
  accounts: UpstreamAccounts;
}

/**
 * Proxy mode: the console, and /fe/* forwarded to a cattle_grid. With `recording`, the history
 * and the streams with ids are answered from Corral's own record (web/recorded-routes.ts).
 */
export function createProxyApp(config: Config, recording?: ProxyRecording) {
  const app = new Hono();
  app.onError((error, c) => {
    log.error("{method} {path} failed: {error}", {
      method: c.req.method,
      path: c.req.path,
      error: error.message,
      stack: error.stack,
    });
    return c.json({ detail: "Internal Server Error" }, 500);
  });
  app.use(requestLog);
  app.use(securityHeaders);
  const forward = createProxyHandler(config.upstream!);
  if (recording) {
    const { services, recorder, accounts } = recording;
    app.route(
      "/",
      createHealthRoutes(services.db, {
        ready: true,
        notReady: () => brokerNotReady("not recording", recorder.status().broker),
      }),
    );
    app.route("/", createRecordedRoutes(services, recorder, accounts, forward));
  }
  app.all("/fe/*", forward);
  app.all("/fe", forward);
  app.get("*", createConsoleHandler(config.consoleDir));
  return app;
}

/**
 * The request as addressed to the base URL whose host it names: behind a TLS-terminating proxy
 * the request arrives as http://, but actor ids (and so Fedify's routing) use the base URL.
 */
function toBaseUrlRequest(services: Services, request: Request): Request {
  const url = new URL(request.url);
  const base = services.config.baseUrls.find((b) => new URL(b).host === url.host);
  if (!base || new URL(base).protocol === url.protocol) return request;
  return new Request(new URL(`${url.pathname}${url.search}`, base), request);
}

const actorInboxPath = /^\/actor\/[^/]+\/inbox$/;

async function routeInbox(services: Services, c: Context, next: Next) {
  const path = c.req.path;
  const shared = path === "/inbox";
  if (!shared && !actorInboxPath.test(path)) return next();
  const request = toBaseUrlRequest(services, c.req.raw);
  const url = new URL(request.url);
  const actorId = shared ? null : `${url.origin}${path.slice(0, -"/inbox".length)}`;
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const client = () =>
    inboxClient(
      env?.incoming?.socket?.remoteAddress,
      c.req.header("x-forwarded-for"),
      services.config.trustProxy,
    );
  return inboxResponse(
    await observeInbox(services, handleInbox(services, inboxRequestOf(request, client), actorId)),
  );
}

async function routeFederation(services: Services, c: Context, next: Next) {
  const fallThrough = async () => {
    await next();
    return c.res;
  };
  return services.federation.fetch(toBaseUrlRequest(services, c.req.raw), {
    contextData: services,
    onNotFound: fallThrough,
    // A browser asking for an actor page gets the console, not 406.
    onNotAcceptable: fallThrough,
  });
}
