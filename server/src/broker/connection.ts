// One connection to a RabbitMQ broker that stays up: connect, run `setup` on a fresh channel
// (declare, bind, consume), and when the connection or channel drops, connect again after a
// backoff that doubles from 0.5 s to 30 s and is reset by a connection that lasted. Every drop
// and every retry is logged in one line; state() is what /readyz reports. The one module that
// talks to amqplib, meant to be shared by everything in Corral that uses a broker.

import { getLogger } from "@logtape/logtape";
import amqp, { type Channel, type ChannelModel } from "amqplib";

const log = getLogger(["corral", "broker"]);

export interface BrokerState {
  connected: boolean;
  /** Why the last attempt or connection failed, in words; null while none has. */
  lastError: string | null;
  /** Attempts since the last connection that lasted. */
  failures: number;
  /** When the next attempt is due (ms since the epoch), null while connected or closed. */
  retryAt: number | null;
}

export interface BrokerConnection {
  state(): BrokerState;
  /**
   * Resolves once connected and set up (the first time, or again after a drop). With
   * `failAtStart`, rejects with the first attempt's reason in words when that attempt failed.
   */
  whenConnected(): Promise<void>;
  /** Stops reconnecting and closes the connection. */
  close(): Promise<void>;
}

export interface BrokerOptions {
  url: string;
  /** Names this connection in the logs and in the broker's connection list. */
  name: string;
  /** Runs on each new connection's channel; a throw counts as a failed attempt. */
  setup(channel: Channel): Promise<void>;
  /**
   * A first attempt that fails ends this connection (no retry): for a broker that must be
   * reachable at start, so that a wrong URL is said at once. Later drops are retried as usual.
   */
  failAtStart?: boolean;
  /** Backoff bounds (tests shorten them). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/** The URL without its password, for logs and messages. */
export function redactAmqpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(an invalid URL)";
  }
}

export function connectBroker(options: BrokerOptions): BrokerConnection {
  const minDelay = options.minDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const where = redactAmqpUrl(options.url);
  const state: BrokerState = { connected: false, lastError: null, failures: 0, retryAt: null };
  let model: ChannelModel | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let everConnected = false;
  let waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];

  const scheduleRetry = (reason: string) => {
    state.connected = false;
    state.lastError = reason;
    if (closed) return;
    if (options.failAtStart && !everConnected) {
      closed = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(reason));
      return;
    }
    const delay = Math.min(maxDelay, minDelay * 2 ** Math.min(state.failures, 16));
    state.failures += 1;
    state.retryAt = Date.now() + delay;
    log.warning("{name}: broker {where}: {reason}; connecting again in {delay} ms", {
      name: options.name,
      where,
      reason,
      delay,
    });
    timer = setTimeout(() => void attempt(), delay);
  };

  const attempt = async () => {
    state.retryAt = null;
    let opened: ChannelModel | null = null;
    try {
      opened = await amqp.connect(options.url, {
        clientProperties: { connection_name: options.name },
        timeout: 10_000,
      });
      if (closed) return void opened.close().catch(() => {});
      const channel = await opened.createChannel();
      // The connection's error (the broker's reason) may come after the channel's close: the
      // drop is reported once both had their turn, with the best reason seen.
      let dropped = false;
      let reason: string | null = null;
      const onError = (error: Error) => {
        reason ??= describe(error);
      };
      const onClose = () => {
        if (dropped) return;
        dropped = true;
        setImmediate(() => {
          if (model === opened) model = null;
          opened?.close().catch(() => {});
          scheduleRetry(`connection lost: ${reason ?? "closed"}`);
        });
      };
      opened.on("error", onError);
      opened.on("close", (error?: Error) => {
        if (error) onError(error);
        onClose();
      });
      channel.on("error", onError);
      channel.on("close", onClose);
      await options.setup(channel);
      model = opened;
      state.connected = true;
      state.lastError = null;
      everConnected = true;
      log.info("{name}: connected to broker {where}", { name: options.name, where });
      // A connection that lasts a minute resets the backoff.
      const lasted = setTimeout(() => {
        if (model === opened) state.failures = 0;
      }, 60_000);
      lasted.unref();
      for (const waiter of waiters.splice(0)) waiter.resolve();
    } catch (error) {
      opened?.close().catch(() => {});
      scheduleRetry(describe(error));
    }
  };

  void attempt();
  return {
    state: () => ({ ...state }),
    whenConnected() {
      if (state.connected) return Promise.resolve();
      if (closed && options.failAtStart && !everConnected)
        return Promise.reject(new Error(state.lastError ?? "closed"));
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      waiters = [];
      const open = model;
      model = null;
      state.connected = false;
      await open?.close().catch(() => {});
    },
  };
}

/** The broker's own words where it gave some ("NOT_ALLOWED - access to vhost 'v' refused …"). */
function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === "ECONNREFUSED") return "connection refused";
  const message = e.message || String(error);
  // amqplib 2.3.1 drops the broker's words when it refuses the vhost (seen on RabbitMQ 3).
  if (message.includes("Expected ConnectionOpenOk; got <ConnectionClose"))
    return "the broker refused the vhost (it does not exist, or this user may not use it)";
  const broker = /\b([A-Z_]{3,} - [^"]+)/.exec(message)?.[1];
  if (broker?.startsWith("ACCESS_REFUSED")) return `login refused (user or password): ${broker}`;
  return broker ?? message;
}
