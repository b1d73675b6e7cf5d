// Proxy mode with --upstream-amqp: every account's events, as cattle_grid publishes them on its
// RabbitMQ, stored in Corral's own event log (docs/proxy-history.md). One durable queue of our
// own, bound on amq.topic to `combined.*` (incoming and outgoing events, each with the
// history_id cattle_grid stores it under) and `error.*`. cattle_grid 0.5.22 also publishes each
// incoming and outgoing event on `receive.NAME.incoming|outgoing.TYPE`, before its history gives
// it an id; binding those too would record every event twice, so they are left out.
// A message is acknowledged only once its event is committed (or found already stored): a crash
// in between delivers it again, and its upstream id stores it once.

import { getLogger } from "@logtape/logtape";
import type { Channel, ConsumeMessage } from "amqplib";
import { ensureRecordedAccount } from "../accounts/index.ts";
import { connectBroker, type BrokerConnection, type BrokerState } from "../broker/connection.ts";
import type { Db } from "../db/db.ts";
import { storedUpstreamIds } from "../db/events.store.ts";
import type { EventLog, StreamName } from "../events/index.ts";

const log = getLogger(["corral", "recording"]);

export const RECORDING_QUEUE = "corral_history";
const EXCHANGE = "amq.topic";
export const RECORDED_KEYS = ["combined.*", "error.*"] as const;
/** Messages in flight at once: enough to store them in groups (events/event-log.ts). */
const PREFETCH = 1000;

export interface RecorderStatus {
  broker: BrokerState;
  /** Where events come from, password left out. */
  source: string;
  /** Events stored since this process started. */
  recorded: number;
  /** Messages dropped as not an event (logged one by one). */
  dropped: number;
}

export interface Recorder {
  status(): RecorderStatus;
  whenConnected(): Promise<void>;
  close(): Promise<void>;
}

type Parsed = { account: string; stream: StreamName; data: object; upstreamId?: string };

/** What a message on one of our keys holds, or why it is not an event we record. */
export function parseMessage(
  routingKey: string,
  content: Buffer,
  messageId: unknown,
): Parsed | string {
  const [kind, account, ...rest] = routingKey.split(".");
  if (!account || rest.length > 0 || (kind !== "combined" && kind !== "error"))
    return `routing key ${routingKey} is not one of ${RECORDED_KEYS.join(", ")}`;
  let data: unknown;
  try {
    data = JSON.parse(content.toString("utf8"));
  } catch {
    return `the body on ${routingKey} is not JSON`;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return `the body on ${routingKey} is not a JSON object`;
  const id = typeof messageId === "string" && messageId !== "" ? messageId : undefined;
  if (kind === "error") return { account, stream: "error", data, upstreamId: id && `msg:${id}` };
  const { event_type: type, history_id: historyId } = data as Record<string, unknown>;
  if (type !== "incoming" && type !== "outgoing")
    return `the event on ${routingKey} has event_type ${JSON.stringify(type)}, not incoming or outgoing`;
  const upstreamId = typeof historyId === "string" && historyId !== "" ? historyId : id;
  return { account, stream: type, data, upstreamId };
}

export function startRecorder(input: {
  url: string;
  db: Db;
  events: EventLog;
  /** Backoff bounds of the broker connection (tests shorten them). */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** How long a message that could not be stored waits before it goes back to the queue. */
  retryMs?: number;
}): Recorder {
  const retryMs = input.retryMs ?? 1000;
  const { db, events } = input;
  const accounts = new Map<string, Promise<number>>();
  let recorded = 0;
  let dropped = 0;

  const accountId = (name: string) => {
    let id = accounts.get(name);
    if (!id) {
      id = ensureRecordedAccount(db, name);
      id.catch(() => accounts.delete(name));
      accounts.set(name, id);
    }
    return id;
  };

  // Messages are stored in the order they arrive: those of one turn of the event loop go
  // together (one look-up of stored ids per account), and their appends are queued in order
  // (the event log stores each stream's in groups, events/event-log.ts) before the next batch's.
  type Pending = { channel: Channel; message: ConsumeMessage; parsed: Parsed };
  let batch: Pending[] = [];
  let flushing: Promise<void> = Promise.resolve();

  const settle = (channel: Channel, message: ConsumeMessage, ack: boolean) => {
    const send = () => {
      try {
        if (ack) channel.ack(message);
        else channel.nack(message, false, true);
      } catch {
        // The channel is gone: the broker delivers the message again on the next connection.
      }
    };
    // A message that could not be stored goes back to the queue after a pause: at once, a
    // database that refuses every write would have it delivered again and again without end.
    if (ack) send();
    else setTimeout(send, retryMs).unref();
  };

  const flush = async (items: Pending[]) => {
    const ids = new Map<string, number>();
    const stored = new Set<string>();
    try {
      for (const item of items) {
        const name = item.parsed.account;
        if (!ids.has(name)) ids.set(name, await accountId(name));
      }
      const upstreamIds = [...new Set(items.flatMap((item) => item.parsed.upstreamId ?? []))];
      for (let i = 0; i < upstreamIds.length; i += 500)
        for (const pair of await storedUpstreamIds(db, upstreamIds.slice(i, i + 500)))
          stored.add(pair);
    } catch (error) {
      log.error("reading what is recorded already failed: {error}", {
        error: (error as Error).message,
      });
      for (const item of items) settle(item.channel, item.message, false);
      return;
    }
    for (const { channel, message, parsed } of items) {
      const id = ids.get(parsed.account)!;
      const upstreamId = parsed.upstreamId;
      const pair = `${id} ${upstreamId}`;
      if (upstreamId !== undefined && stored.has(pair)) {
        settle(channel, message, true);
        continue;
      }
      if (upstreamId !== undefined) stored.add(pair);
      // Acknowledged once committed; the next batch does not wait for the commit, only for
      // these appends to be queued.
      void events.append(id, parsed.stream, parsed.data, { upstreamId }).then(
        () => {
          recorded += 1;
          settle(channel, message, true);
        },
        (error: Error) => {
          log.error("storing an event of {account} from the broker failed: {error}", {
            account: parsed.account,
            error: error.message,
          });
          settle(channel, message, false);
        },
      );
    }
  };

  const onMessage = (channel: Channel, message: ConsumeMessage) => {
    const parsed = parseMessage(
      message.fields.routingKey,
      message.content,
      message.properties.messageId,
    );
    if (typeof parsed === "string") {
      dropped += 1;
      log.warning("not recorded: {reason}", { reason: parsed });
      return settle(channel, message, true);
    }
    batch.push({ channel, message, parsed });
    if (batch.length > 1) return;
    setImmediate(() => {
      const items = batch;
      batch = [];
      flushing = flushing.then(() => flush(items));
    });
  };

  const broker: BrokerConnection = connectBroker({
    url: input.url,
    name: "corral recording",
    minDelayMs: input.minDelayMs,
    maxDelayMs: input.maxDelayMs,
    async setup(channel) {
      await channel.assertQueue(RECORDING_QUEUE, { durable: true });
      for (const key of RECORDED_KEYS) await channel.bindQueue(RECORDING_QUEUE, EXCHANGE, key);
      await channel.prefetch(PREFETCH);
      await channel.consume(RECORDING_QUEUE, (message) => {
        if (message) onMessage(channel, message);
      });
    },
  });

  return {
    status: () => ({
      broker: broker.state(),
      source: redactedSource(input.url),
      recorded,
      dropped,
    }),
    whenConnected: () => broker.whenConnected(),
    close: () => broker.close(),
  };
}

function redactedSource(url: string): string {
  try {
    const parsed = new URL(url);
    const vhost = decodeURIComponent(parsed.pathname.slice(1)) || "/";
    return `${parsed.protocol}//${parsed.host} (vhost ${vhost})`;
  } catch {
    return "(an invalid URL)";
  }
}
