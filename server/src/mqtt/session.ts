// One MQTT 5 client over a WebSocket: CONNECT checked against Corral's accounts, subscriptions
// confined to the account's own topics, each PUBLISH handed to Cattle Drive (cattle-drive/), and
// the account's stream events sent to it. Every PUBLISH it is sent carries CorrelationData:
// almabtrieb's receive loop ends on one without.

import { randomUUID } from "node:crypto";
import { getLogger } from "@logtape/logtape";
import * as mqttPacket from "mqtt-packet";
import type { WebSocket } from "ws";
import type { Account, SignInThrottle } from "../accounts/index.ts";
import type { Correlations } from "../cattle-drive/correlations.ts";
import { eventMessage } from "../cattle-drive/events.ts";
import { checkLogin, loginEnded, loginHash } from "../cattle-drive/login.ts";
import { TOKENS_BUS_NAME } from "../accounts/token-watch.ts";
import { errorKey, type DriveMessage } from "../cattle-drive/protocol.ts";
import { handleDriveMessage } from "../cattle-drive/requests.ts";
import { SentBodies, streamNames, type StoredEvent } from "../events/index.ts";
import type { Services } from "../services.ts";
import type { createRateBuckets, MqttLimits } from "./limits.ts";
import { matchesFilter, mayPublish, maySubscribe, toKey, toTopic } from "./topics.ts";

const log = getLogger(["corral", "mqtt"]);
const V5 = { protocolVersion: 5 } as const;

// MQTT 5 reason codes (section 2.4).
const NOT_AUTHORIZED = 0x87;
const BAD_LOGIN = 0x86;
const CONNECTION_RATE_EXCEEDED = 0x9f;
const QUOTA_EXCEEDED = 0x97;
const QOS_NOT_SUPPORTED = 0x9b;
const KEEP_ALIVE_TIMEOUT = 0x8d;
const PROTOCOL_ERROR = 0x82;
const MALFORMED = 0x81;
const NO_SUBSCRIPTION = 0x11;

export interface SessionContext {
  services: Services;
  throttle: SignInThrottle;
  correlations: Correlations;
  limits: MqttLimits;
  rates: ReturnType<typeof createRateBuckets>;
  address: string;
}

export function runSession(ws: WebSocket, ctx: SessionContext): void {
  const { services, limits } = ctx;
  const parser = mqttPacket.parser(V5);
  const filters = new Set<string>();
  const cleanups: (() => void)[] = [];
  let account: Account | null = null;
  let connecting = false;
  let closed = false;
  let idle: NodeJS.Timeout | undefined;
  let idleMs = limits.connectTimeoutMs;

  const write = (packet: mqttPacket.Packet) => {
    if (closed) return;
    ws.send(mqttPacket.generate(packet, V5));
  };
  const close = (reasonCode?: number, reasonString?: string) => {
    if (closed) return;
    if (reasonCode !== undefined && account)
      write({ cmd: "disconnect", reasonCode, properties: reasonString ? { reasonString } : {} });
    closed = true;
    ws.close();
  };
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => close(KEEP_ALIVE_TIMEOUT, "nothing received within the keep-alive"),
      idleMs,
    );
  };
  touch();

  /** Sends a Cattle Drive message if one of the client's subscriptions takes its topic. */
  const deliver = (message: DriveMessage) => {
    if (closed) return;
    const topic = toTopic(message.key);
    if (![...filters].some((filter) => matchesFilter(filter, topic))) return;
    if (ws.bufferedAmount > limits.maxBufferedBytes) {
      log.warning("MQTT client {client} of {account} reads too slowly: disconnected", {
        client: clientId,
        account: account?.name,
      });
      return close(
        QUOTA_EXCEEDED,
        "the client reads too slowly: messages waiting exceeded the bound",
      );
    }
    write({
      cmd: "publish",
      topic,
      payload: Buffer.from(message.payload),
      qos: 0,
      retain: false,
      dup: false,
      properties: {
        correlationData: Buffer.from(message.correlationId),
        contentType: "application/json",
        payloadFormatIndicator: true,
      },
    });
  };

  let clientId = "";

  const onConnect = async (packet: mqttPacket.IConnectPacket) => {
    if (packet.protocolVersion !== 5) {
      // Refused in the client's own version: 3.1.1's "unacceptable protocol version".
      ws.send(
        mqttPacket.generate(
          { cmd: "connack", returnCode: 1, sessionPresent: false },
          {
            protocolVersion: packet.protocolVersion ?? 4,
          },
        ),
      );
      closed = true;
      return ws.close();
    }
    const refuse = (reasonCode: number, reasonString: string) => {
      write({ cmd: "connack", reasonCode, sessionPresent: false, properties: { reasonString } });
      closed = true;
      ws.close();
    };
    if (!packet.username || !packet.password)
      return refuse(
        BAD_LOGIN,
        "Cattle Drive needs the account's name and password (ws://NAME:PASSWORD@host/ws)",
      );
    const login = await checkLogin(services, ctx.throttle, {
      name: packet.username,
      password: packet.password.toString("utf8"),
      address: ctx.address,
    });
    const hash = login.ok ? await loginHash(services, login.account.name) : null;
    // Closed meanwhile: nothing may be registered that the close would not undo.
    if (closed) return;
    if (!login.ok)
      return refuse(login.retryAfterS ? CONNECTION_RATE_EXCEEDED : BAD_LOGIN, login.reason);
    const registry = services.cattleDrive!.connections;
    if (registry.count(login.account.id) >= limits.maxConnectionsPerAccount)
      return refuse(
        QUOTA_EXCEEDED,
        `account ${login.account.name} has ${limits.maxConnectionsPerAccount} connections open, the most allowed`,
      );
    account = login.account;
    clientId = packet.clientId || `corral-${randomUUID()}`;
    watchLogin(login.account, hash ?? "");
    const keepAlive = packet.keepalive ?? 0;
    const granted =
      keepAlive === 0 || keepAlive > limits.maxKeepAliveS ? limits.maxKeepAliveS : keepAlive;
    idleMs = granted * 1500;
    touch();
    cleanups.push(
      registry.add(account.id, {
        transport: "websocket",
        client: clientId,
        since: new Date().toISOString(),
        address: ctx.address,
      }),
    );
    write({
      cmd: "connack",
      reasonCode: 0,
      sessionPresent: false,
      properties: {
        maximumPacketSize: limits.maxPacketBytes,
        maximumQoS: 1,
        retainAvailable: false,
        sharedSubscriptionAvailable: false,
        wildcardSubscriptionAvailable: true,
        topicAliasMaximum: 0,
        ...(granted !== keepAlive ? { serverKeepAlive: granted } : {}),
        ...(packet.clientId ? {} : { assignedClientIdentifier: clientId }),
      },
    });
    await watchStreams(account);
  };

  // A password change or a deleted account ends the connection: at once where it is announced
  // (account password / delete announce it as they end the account's tokens), else within a minute.
  const watchLogin = (owner: Account, hash: string) => {
    let checking = false;
    const recheck = () => {
      if (checking || closed) return;
      checking = true;
      loginEnded(services, { name: owner.name, hash })
        .then((reason) => reason && close(NOT_AUTHORIZED, reason))
        .catch((error: Error) =>
          log.warning("MQTT client {client}: rechecking its login failed: {error}", {
            client: clientId,
            error: error.message,
          }),
        )
        .finally(() => (checking = false));
    };
    const unsubscribe = services.bus.subscribe((message) => {
      if (message.stream === TOKENS_BUS_NAME && message.accountId === owner.id) recheck();
    });
    const timer = setInterval(recheck, limits.loginRecheckMs);
    cleanups.push(unsubscribe, () => clearInterval(timer));
  };

  const watchStreams = async (owner: Account) => {
    for (const stream of streamNames) {
      const sent = new SentBodies();
      let completing = Promise.resolve();
      const send = (rows: StoredEvent[]) => {
        for (const row of rows)
          deliver(eventMessage(owner.name, stream, row.data, ctx.correlations));
      };
      const watch = await services.events.watch(owner.id, stream, null, {
        onRows(rows) {
          if (stream !== "error") return send(rows);
          completing = completing
            .then(async () => send(await services.events.completeForConnection(rows, sent)))
            .catch((error: Error) =>
              log.error("MQTT error events: {error}", { error: error.message }),
            );
        },
        onError(error) {
          log.error("MQTT client {client}: {stream} stream failed: {error}", {
            client: clientId,
            stream,
            error: (error as Error)?.message ?? String(error),
          });
          close(0x80, "the server could not read the account's events");
        },
      });
      if (closed) watch.close();
      else cleanups.push(watch.close);
    }
  };

  const onPublish = async (packet: mqttPacket.IPublishPacket) => {
    const owner = account!;
    if (packet.qos === 2) return close(QOS_NOT_SUPPORTED, "QoS 2 is not supported; use 0 or 1");
    const correlationId = packet.properties?.correlationData?.toString("utf8") ?? null;
    const ack = (reasonCode: number, reasonString?: string) => {
      if (packet.qos === 1)
        write({
          cmd: "puback",
          messageId: packet.messageId,
          reasonCode,
          properties: reasonString ? { reasonString } : {},
        });
    };
    const refuse = (reasonCode: number, reason: string) => {
      ack(reasonCode, reason);
      deliver({
        key: errorKey(owner.name),
        payload: JSON.stringify({
          message: [reason],
          routing_key: toKey(packet.topic),
          original_message_body: packet.payload.toString(),
        }),
        correlationId: correlationId ?? randomUUID(),
      });
    };
    if (!mayPublish(owner.name, packet.topic))
      return refuse(
        NOT_AUTHORIZED,
        `${owner.name} may publish only on send/${owner.name}/…, not on ${packet.topic}`,
      );
    // PUBACK has no "message rate too high" (0x96 is DISCONNECT's): quota exceeded is its word.
    if (!ctx.rates.take(owner.id))
      return refuse(
        QUOTA_EXCEEDED,
        `too many requests: at most ${limits.requestsPerSecond} a second per account`,
      );
    ack(0);
    const replies = await handleDriveMessage(services, ctx.correlations, owner, {
      key: toKey(packet.topic),
      payload: packet.payload.toString(),
      correlationId,
    });
    replies.forEach(deliver);
  };

  const onSubscribe = (packet: mqttPacket.ISubscribePacket) => {
    const owner = account!;
    const refused: string[] = [];
    const granted = packet.subscriptions.map((sub) => {
      if (!maySubscribe(owner.name, sub.topic)) {
        refused.push(sub.topic);
        return NOT_AUTHORIZED;
      }
      filters.add(sub.topic);
      return Math.min(sub.qos, 1);
    });
    write({
      cmd: "suback",
      messageId: packet.messageId,
      granted,
      properties: refused.length
        ? {
            reasonString: `${owner.name} may subscribe only to receive/${owner.name}/… and error/${owner.name}, not to ${refused.join(", ")}`,
          }
        : {},
    });
  };

  const handle = async (packet: mqttPacket.Packet) => {
    touch();
    if (!account) {
      if (packet.cmd !== "connect" || connecting) return close(PROTOCOL_ERROR);
      connecting = true;
      return onConnect(packet);
    }
    switch (packet.cmd) {
      case "publish":
        return onPublish(packet);
      case "subscribe":
        return onSubscribe(packet);
      case "unsubscribe":
        return write({
          cmd: "unsuback",
          messageId: packet.messageId,
          granted: packet.unsubscriptions.map((topic) =>
            filters.delete(topic) ? 0 : NO_SUBSCRIPTION,
          ),
        } as mqttPacket.IUnsubackPacket);
      case "pingreq":
        return write({ cmd: "pingresp" });
      case "disconnect":
        closed = true;
        return ws.close();
      default:
        return close(PROTOCOL_ERROR, `${packet.cmd} is not expected from a client here`);
    }
  };

  // CONNECT is answered before anything after it is read; publishes then run side by side.
  let ready: Promise<void> = Promise.resolve();
  parser.on("packet", (packet: mqttPacket.Packet) => {
    const run = () =>
      handle(packet).catch((error: Error) => {
        log.error("MQTT client {client}: {cmd} failed: {error}", {
          client: clientId,
          cmd: packet.cmd,
          error: error.message,
        });
        close(0x80, "the server failed to handle a packet; its log says why");
      });
    if (account) void ready.then(run);
    else ready = ready.then(run);
  });
  parser.on("error", (error: Error) => close(MALFORMED, `malformed packet: ${error.message}`));
  ws.on("message", (data: Buffer) => {
    if (!closed) parser.parse(data);
  });
  ws.on("close", () => {
    closed = true;
    clearTimeout(idle);
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  ws.on("error", () => ws.terminate());
}
