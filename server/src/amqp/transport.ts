// Cattle Drive over AMQP (`--amqp URL`), as cattle_grid 0.5.22 runs it on RabbitMQ: clients
// publish on amq.topic with `send.{account}.…` and read `receive.{account}.…` and
// `error.{account}` from queues of their own. Every Corral process consumes one shared durable
// queue (each request is handled by one of them) and publishes the events it appends itself
// (events/event-log.ts onAppended: each event once, whichever process stored it). RabbitMQ
// checks the clients' logins and topics by asking /rabbitmq/* (web/rabbitmq.ts).

import { getLogger } from "@logtape/logtape";
import { connect, type Channel, type ChannelModel, type ConsumeMessage } from "amqplib";
import { findAccountById, findAccountByName, type Account } from "../accounts/index.ts";
import { eventMessage } from "../cattle-drive/events.ts";
import type { DriveMessage } from "../cattle-drive/protocol.ts";
import { handleDriveMessage } from "../cattle-drive/requests.ts";
import { AMQP_EXCHANGE, withoutCredentials } from "../cattle-drive/runtime.ts";
import { SentBodies } from "../events/index.ts";
import type { Services } from "../services.ts";

const log = getLogger(["corral", "amqp"]);

/** The queue every Corral process on the broker takes requests from (one handles each). */
export const REQUEST_QUEUE = "corral_cattle_drive_requests";
const REQUEST_KEYS = ["send.*.request.*", "send.*.trigger.#"];
const PREFETCH = 64;
const RECONNECT_MS = 2_000;

export interface AmqpTransport {
  close(): Promise<void>;
}

/** Connects (a broker that cannot be reached at start is an error), then reconnects as needed. */
export async function startAmqpTransport(services: Services, url: string): Promise<AmqpTransport> {
  const drive = services.cattleDrive!;
  const where = withoutCredentials(url);
  const names = new Map<number, Promise<Account | undefined>>();
  let model: ChannelModel | null = null;
  let channel: Channel | null = null;
  let closing = false;
  let retry: NodeJS.Timeout | undefined;

  const publish = (message: DriveMessage) => {
    if (!channel) return false;
    return channel.publish(AMQP_EXCHANGE, message.key, Buffer.from(message.payload), {
      correlationId: message.correlationId,
      contentType: "application/json",
    });
  };

  const onRequest = async (msg: ConsumeMessage) => {
    const key = msg.fields.routingKey;
    const name = key.split(".")[1] ?? "";
    const account = await findAccountByName(services.db, name);
    if (!account) {
      log.warning("Cattle Drive over AMQP: {key} names no account of this server", { key });
      return;
    }
    const replies = await handleDriveMessage(services, drive.correlations, account, {
      key,
      payload: msg.content.toString("utf8"),
      correlationId: msg.properties.correlationId ?? null,
    });
    replies.forEach(publish);
  };

  const open = async () => {
    const next = await connect(url);
    const ch = await next.createChannel();
    await ch.checkExchange(AMQP_EXCHANGE);
    await ch.assertQueue(REQUEST_QUEUE, { durable: true });
    for (const pattern of REQUEST_KEYS) await ch.bindQueue(REQUEST_QUEUE, AMQP_EXCHANGE, pattern);
    await ch.prefetch(PREFETCH);
    await ch.consume(REQUEST_QUEUE, (msg) => {
      if (!msg) return;
      // Acknowledged once answered: a process that dies meanwhile leaves it to another.
      onRequest(msg)
        .catch((error: Error) =>
          log.error("Cattle Drive over AMQP: {key} failed: {error}", {
            key: msg.fields.routingKey,
            error: error.message,
          }),
        )
        .finally(() => {
          if (channel === ch) ch.ack(msg);
        });
    });
    const lost = (error?: Error) => {
      if (model !== next) return;
      model = null;
      channel = null;
      if (closing) return;
      log.error("Cattle Drive over AMQP: lost {where} ({error}); reconnecting", {
        where,
        error: error?.message ?? "closed",
      });
      retry = setTimeout(reconnect, RECONNECT_MS);
    };
    next.on("error", lost);
    next.on("close", lost);
    model = next;
    channel = ch;
  };
  const reconnect = () => {
    open().catch((error: Error) => {
      log.error("Cattle Drive over AMQP: cannot reach {where}: {error}", {
        where,
        error: error.message,
      });
      if (!closing) retry = setTimeout(reconnect, RECONNECT_MS);
    });
  };

  try {
    await open();
  } catch (error) {
    throw new Error(`cannot connect to the AMQP broker ${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }

  const accountOf = (accountId: number) => {
    let found = names.get(accountId);
    if (!found) {
      found = findAccountById(services.db, accountId);
      names.set(accountId, found);
      found
        .then((account) => account || names.delete(accountId))
        .catch(() => names.delete(accountId));
    }
    return found;
  };
  const unlisten = services.events.onAppended((accountId, stream, rows) => {
    void (async () => {
      const account = await accountOf(accountId);
      if (!account) return;
      const whole =
        stream === "error"
          ? await services.events.completeForConnection(rows, new SentBodies())
          : rows;
      for (const row of whole)
        publish(eventMessage(account.name, stream, row.data, drive.correlations));
    })().catch((error: Error) =>
      log.error("Cattle Drive over AMQP: publishing {stream} events failed: {error}", {
        stream,
        error: error.message,
      }),
    );
  });

  return {
    async close() {
      closing = true;
      clearTimeout(retry);
      unlisten();
      const current = model;
      model = null;
      channel = null;
      await current?.close().catch(() => {});
    },
  };
}
