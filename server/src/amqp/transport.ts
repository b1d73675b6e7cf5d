// Cattle Drive over AMQP (`--amqp URL`), as cattle_grid 0.5.22 runs it on RabbitMQ: clients
// publish on amq.topic with `send.{account}.…` and read `receive.{account}.…` and
// `error.{account}` from queues of their own. Every Corral process consumes one shared durable
// queue (each request is handled by one of them) and publishes the events it appends itself
// (events/event-log.ts onAppended: each event once, whichever process stored it), incoming and
// outgoing ones on `combined.{account}` too, with their history_id, as cattle_grid does. RabbitMQ
// checks the clients' logins and topics by asking /rabbitmq/* (web/rabbitmq.ts). The connection
// is broker/connection.ts's: reconnect with backoff, its state in /readyz.

import { getLogger } from "@logtape/logtape";
import type { Channel, ConsumeMessage } from "amqplib";
import { findAccountById, findAccountByName, type Account } from "../accounts/index.ts";
import { connectBroker, redactAmqpUrl, type BrokerState } from "../broker/connection.ts";
import { combinedMessage, eventMessage, learnCorrelations } from "../cattle-drive/events.ts";
import type { DriveMessage } from "../cattle-drive/protocol.ts";
import { handleDriveMessage } from "../cattle-drive/requests.ts";
import { AMQP_EXCHANGE } from "../cattle-drive/runtime.ts";
import { SentBodies } from "../events/index.ts";
import type { Services } from "../services.ts";

const log = getLogger(["corral", "amqp"]);

/** The queue every Corral process on the broker takes requests from (one handles each). */
export const REQUEST_QUEUE = "corral_cattle_drive_requests";
const REQUEST_KEYS = ["send.*.request.*", "send.*.trigger.#"];
const PREFETCH = 64;

export interface AmqpTransport {
  /** The broker connection's state (what /readyz reports). */
  state(): BrokerState;
  close(): Promise<void>;
}

/**
 * Connects (a broker that cannot be reached at start is an error that says why), then
 * reconnects after a drop with backoff (broker/connection.ts).
 */
export async function startAmqpTransport(services: Services, url: string): Promise<AmqpTransport> {
  const drive = services.cattleDrive!;
  const names = new Map<number, Promise<Account | undefined>>();
  let channel: Channel | null = null;
  let unpublished = 0;
  let closed = false;

  const publish = (message: DriveMessage) => {
    if (!channel) {
      if (closed) return false;
      // Said once per outage, not once per event.
      if (unpublished++ === 0)
        log.warning("Cattle Drive over AMQP: events are not published while the broker is down");
      return false;
    }
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

  const setup = async (ch: Channel) => {
    await ch.checkExchange(AMQP_EXCHANGE);
    await ch.assertQueue(REQUEST_QUEUE, { durable: true });
    for (const pattern of REQUEST_KEYS) await ch.bindQueue(REQUEST_QUEUE, AMQP_EXCHANGE, pattern);
    await ch.prefetch(PREFETCH);
    ch.on("close", () => {
      if (channel === ch) channel = null;
    });
    channel = ch;
    if (unpublished > 0)
      log.warning("Cattle Drive over AMQP: {count} events were not published while it was down", {
        count: unpublished,
      });
    unpublished = 0;
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
          try {
            ch.ack(msg);
          } catch {
            // The channel is gone: the broker hands the request to the next consumer.
          }
        });
    });
  };

  const broker = connectBroker({
    url,
    name: "Cattle Drive over AMQP",
    setup,
    failAtStart: true,
  });
  try {
    await broker.whenConnected();
  } catch (error) {
    throw new Error(
      `cannot connect to the AMQP broker ${redactAmqpUrl(url)}: ${(error as Error).message}`,
      { cause: error },
    );
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
      await learnCorrelations(services.db, drive.correlations, whole);
      for (const row of whole) {
        const message = eventMessage(account.name, stream, row.data, drive.correlations);
        publish(message);
        if (stream !== "error")
          publish(combinedMessage(account.name, stream, row, message.correlationId));
      }
    })().catch((error: Error) =>
      log.error("Cattle Drive over AMQP: publishing {stream} events failed: {error}", {
        stream,
        error: error.message,
      }),
    );
  });

  return {
    state: () => broker.state(),
    async close() {
      closed = true;
      unlisten();
      channel = null;
      await broker.close();
    },
  };
}
