// The bounds of the MQTT endpoint, like the HTTP side's: message size, connections and requests
// per account, idle time. Tests shorten them.

export interface MqttLimits {
  /** Largest MQTT packet taken or sent (the /fe body limit). */
  maxPacketBytes: number;
  /** Connections one account may hold open to this process. */
  maxConnectionsPerAccount: number;
  /** Messages an account may send per second (a bucket refilled at this rate)… */
  requestsPerSecond: number;
  /** …holding at most this many. */
  requestBurst: number;
  /** The longest keep-alive granted; a connection silent for 1.5 times its keep-alive is closed. */
  maxKeepAliveS: number;
  /** Time from opening the WebSocket to CONNECT. */
  connectTimeoutMs: number;
  /** Bytes waiting to be written to a client before it is dropped as too slow. */
  maxBufferedBytes: number;
  /** How often a connection's login is checked again, besides when account changes are announced. */
  loginRecheckMs: number;
}

export const defaultMqttLimits: MqttLimits = {
  maxPacketBytes: 5 * 1024 * 1024,
  maxConnectionsPerAccount: 20,
  requestsPerSecond: 100,
  requestBurst: 200,
  maxKeepAliveS: 300,
  connectTimeoutMs: 10_000,
  maxBufferedBytes: 16 * 1024 * 1024,
  loginRecheckMs: 60_000,
};

/** Requests per account: a token bucket each, in this process. */
export function createRateBuckets(limits: MqttLimits, now: () => number = Date.now) {
  const buckets = new Map<number, { tokens: number; at: number }>();
  return {
    /** Takes one request of `accountId`; false when it is over its rate. */
    take(accountId: number): boolean {
      const t = now();
      const bucket = buckets.get(accountId) ?? { tokens: limits.requestBurst, at: t };
      bucket.tokens = Math.min(
        limits.requestBurst,
        bucket.tokens + ((t - bucket.at) / 1000) * limits.requestsPerSecond,
      );
      bucket.at = t;
      buckets.set(accountId, bucket);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}
