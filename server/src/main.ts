// Process entry: configuration → database → HTTP server → background work (by --role). startServer is also
// what tests use to run real servers in-process (port 0 picks a free port).

import { randomBytes } from "node:crypto";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import {
  countAccounts,
  createAccount,
  createSignInThrottle,
  defaultThrottle,
  type ThrottleOptions,
} from "./accounts/index.ts";
import { createOutgoing } from "./activitypub/outgoing.ts";
import { describeUnservedAtStart, findUnservedActors } from "./actors/unserved.ts";
import type { ResolveHost } from "./activitypub/pinned-lookup.ts";
import { createListener, createProxyApp, createWorkerApp, type ProxyRecording } from "./app.ts";
import { startAmqpTransport, type AmqpTransport } from "./amqp/transport.ts";
import { startBackgroundWork, type BackgroundWork } from "./background.ts";
import { createCattleDrive } from "./cattle-drive/runtime.ts";
import { parseConfig, type Config } from "./config.ts";
import { openDatabase, redactDatabaseUrl, type OpenDatabase } from "./db/open.ts";
import type { EventBus } from "./db/bus.ts";
import { openServerStores } from "./db/services.ts";
import { createEventLog } from "./events/index.ts";
import { releaseStaleClaims } from "./db/claiming.ts";
import { fillMissingHosts } from "./db/deliveries.store.ts";
import { createCorralFederation } from "./federation/index.ts";
import { InboxHttpServer } from "./federation/inbox-connection.ts";
import { warnOfIgnoredForwarding } from "./web/forwarded-warning.ts";
import { configureLogging } from "./logs/configure-logging.ts";
import { enableMetrics } from "./metrics/observe.ts";
import { attachMqttEndpoint, type MqttEndpoint } from "./mqtt/endpoint.ts";
import type { MqttLimits } from "./mqtt/limits.ts";
import { startRecorder, type Recorder } from "./recording/recorder.ts";
import { redactAmqpUrl } from "./broker/connection.ts";
import { createUpstreamAccounts } from "./web/upstream-account.ts";
import type { BackgroundTasks, Services } from "./services.ts";

export interface RunningServer {
  url: string;
  services: Services;
  close(): Promise<void>;
}

export type ServerInput = Partial<Config> & {
  database: string;
  /** Sign-in throttling limits (tests shorten them). */
  throttle?: ThrottleOptions;
  /** How outgoing requests resolve names (default: the system's DNS); tests answer themselves. */
  resolveHost?: ResolveHost;
  /** Bounds of the Cattle Drive WebSocket endpoint (tests shorten them). */
  mqttLimits?: Partial<MqttLimits>;
};

export async function startServer(input: ServerInput): Promise<RunningServer> {
  const { throttle, resolveHost, mqttLimits, ...rest } = input;
  const config = parseConfig(rest);
  const opened = await openDatabase(config.database, { pool: config.dbPool }).catch(
    (error: Error) => {
      throw new Error(
        `cannot open database ${redactDatabaseUrl(config.database)}: ${error.message}`,
        {
          cause: error,
        },
      );
    },
  );
  let server: Server | undefined;
  let worker: BackgroundWork | undefined;
  let mqtt: MqttEndpoint | undefined;
  let amqp: AmqpTransport | undefined;
  try {
    // Listen first: with port 0 the actual port, and so the default base URL, is known only then.
    let handle: RequestListener = (_req, res) => res.writeHead(503).end();
    const inboxServer = new InboxHttpServer((req, res) => handle(req, res));
    server = inboxServer;
    const port = await listen(server, config.port, config.host);
    const url = `http://${displayHost(config.host)}:${port}`;
    config.port = port;
    if (!config.baseUrlsGiven) config.baseUrls = [url];
    const services = await buildServices(config, opened, resolveHost);
    if (config.metrics) enableMetrics(services);
    const signInThrottle = createSignInThrottle(services.db, throttle ?? defaultThrottle);
    if (config.amqp) amqp = await startAmqpTransport(services, config.amqp);
    if (config.role === "worker") handle = getRequestListener(createWorkerApp(services).fetch);
    else {
      const listener = createListener(services, { throttle: signInThrottle, amqp });
      handle = listener;
      // Inbox POSTs from now on answered before Node's HTTP parser (inbox-connection.ts).
      inboxServer.inbox({
        inbox: listener.inbox,
        forwardedFor: (value) =>
          warnOfIgnoredForwarding({ "x-forwarded-for": value }, config.trustProxy),
      });
    }
    if (config.role !== "worker")
      mqtt = attachMqttEndpoint(server, services, {
        throttle: signInThrottle,
        limits: mqttLimits,
      });
    if (config.role !== "web") {
      await releaseStaleClaims(opened.db);
      await fillMissingHosts(opened.db);
      worker = startBackgroundWork(services);
    }
    const running = server;
    return {
      url,
      services,
      async close() {
        await mqtt?.close();
        await closeServer(running);
        await services.tasks?.drain();
        await worker?.stop();
        await amqp?.close();
        await closeBus(services.bus);
        await services.outgoing?.close();
        await opened.db.close();
      },
    };
  } catch (error) {
    await worker?.stop().catch(() => {});
    await amqp?.close();
    await mqtt?.close();
    if (server?.listening) await closeServer(server);
    await opened.db.close();
    throw error;
  }
}

export interface RunningProxy {
  url: string;
  /** With --upstream-amqp: the recording and its database. */
  recording?: ProxyRecording;
  close(): Promise<void>;
}

/**
 * Proxy mode: the console and /fe forwarded to `config.upstream`; no database, unless
 * `upstreamAmqp` is given: then every account's events are recorded from the upstream's broker
 * into `database` and its history is answered from there (docs/proxy-history.md).
 */
export async function startProxyServer(
  input: Partial<Config> & { upstream: string },
): Promise<RunningProxy> {
  const config = parseConfig({ ...input, database: input.database ?? "sqlite::memory:" });
  if (!config.upstreamAmqp) {
    const app = createProxyApp(config);
    const server = createServer(getRequestListener(app.fetch));
    const port = await listen(server, config.port, config.host);
    return { url: `http://${displayHost(config.host)}:${port}`, close: () => closeServer(server) };
  }
  const opened = await openDatabase(config.database, { pool: config.dbPool }).catch(
    (error: Error) => {
      throw new Error(
        `cannot open database ${redactDatabaseUrl(config.database)}: ${error.message}`,
        { cause: error },
      );
    },
  );
  let server: Server | undefined;
  let recorder: Recorder | undefined;
  try {
    const services = await buildServices(config, opened, undefined);
    recorder = startRecorder({ url: config.upstreamAmqp, db: opened.db, events: services.events });
    const recording: ProxyRecording = {
      services,
      recorder,
      accounts: createUpstreamAccounts(config.upstream!),
    };
    server = createServer(getRequestListener(createProxyApp(config, recording).fetch));
    const port = await listen(server, config.port, config.host);
    const running = server;
    const stopRecording = recorder;
    return {
      url: `http://${displayHost(config.host)}:${port}`,
      recording,
      async close() {
        await closeServer(running);
        await stopRecording.close();
        await closeBus(services.bus);
        await opened.db.close();
      },
    };
  } catch (error) {
    await recorder?.close().catch(() => {});
    if (server?.listening) await closeServer(server);
    await opened.db.close();
    throw error;
  }
}

async function buildServices(
  config: Config,
  opened: OpenDatabase,
  resolveHost: ResolveHost | undefined,
): Promise<Services> {
  const { kv, bus } = await openServerStores(opened, config.database);
  const outgoing = createOutgoing({
    allowPrivate: config.allowPrivateAddresses,
    resolveHost,
    site: () => config.baseUrls[0],
  });
  const federation = createCorralFederation({ kv, outgoing });
  const events = createEventLog(opened.db, bus, { cap: config.streamCap });
  return {
    config,
    db: opened.db,
    events,
    federation,
    bus,
    outgoing,
    tasks: createBackgroundTasks(),
    cattleDrive: createCattleDrive({ websocket: config.role !== "worker", amqp: config.amqp }),
  };
}

function createBackgroundTasks(): BackgroundTasks {
  const running = new Set<Promise<unknown>>();
  return {
    track(promise) {
      const settled: Promise<boolean> = promise.then(
        () => running.delete(settled),
        () => running.delete(settled),
      );
      running.add(settled);
      return promise;
    },
    async drain() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

async function closeBus(bus: EventBus) {
  await bus.close?.();
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE")
        reject(new Error(`port ${port} on ${host} is already in use`));
      else if (error.code === "EACCES")
        reject(new Error(`no permission to listen on port ${port}`));
      else if (error.code === "ENOTFOUND" || error.code === "EADDRNOTAVAIL")
        reject(new Error(`cannot listen on host "${host}"`));
      else reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Event streams never end on their own.
    server.closeAllConnections();
  });
}

function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * `corral serve`: runs until SIGINT/SIGTERM. On a database without any account, creates the
 * admin account `operator` with a random password and prints it once.
 */
export async function serve(config: Config): Promise<void> {
  await configureLogging({ format: config.logFormat, level: config.logLevel });
  let running: { url: string; close(): Promise<void> };
  if (config.upstream) {
    running = await startProxyServer({ ...config, upstream: config.upstream });
  } else {
    const server = await startServer(config);
    await ensureOperator(server.services);
    const baseUrls = server.services.config.baseUrls;
    const unserved = describeUnservedAtStart(
      await findUnservedActors(server.services.db, baseUrls),
      baseUrls,
    );
    if (unserved) console.error(unserved);
    running = server;
  }
  const role = config.upstream || config.role === "all" ? "" : ` as ${config.role}`;
  console.log(`Corral is serving on ${running.url}${role}`);
  if (config.upstream) console.log(`Proxy mode: /fe is forwarded to ${config.upstream}`);
  if (config.upstreamAmqp) {
    console.log(
      `Recording every account's events from ${redactAmqpUrl(config.upstreamAmqp)} into ${redactDatabaseUrl(config.database)}`,
    );
  }
  let stopping = false;
  const stop = async () => {
    // A second signal, or a close that hangs, ends the process at once.
    if (stopping) process.exit(1);
    stopping = true;
    setTimeout(() => process.exit(1), 10_000).unref();
    await running.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

async function ensureOperator(services: Services) {
  if ((await countAccounts(services.db)) > 0) return;
  const password = randomBytes(12).toString("base64url");
  const created = await createAccount(services.db, { name: "operator", password, admin: true });
  if (!created.ok) return; // another process made the first account meanwhile
  console.log(`Created the admin account "operator" with password: ${password}`);
  console.log(
    "This password is shown only once; change it with: npm run corral -- account password operator NEW",
  );
}
