// What the Cattle Drive transports of this process share with the rest of the server: who is
// connected (connections.ts), where the WebSocket endpoint listens, and whether AMQP is served.

import { createConnectionRegistry, type ConnectionRegistry } from "./connections.ts";
import { createCorrelations, type Correlations } from "./correlations.ts";

export const WEBSOCKET_PATH = "/ws";
export const AMQP_EXCHANGE = "amq.topic";

export interface CattleDrive {
  connections: ConnectionRegistry;
  /** The correlation ids of triggers this process accepted, for their events. */
  correlations: Correlations;
  /** False when this process does not serve the WebSocket endpoint (a worker). */
  websocket: boolean;
  /** The broker's URL without user and password, when AMQP is served. */
  amqpUrl: string | null;
}

export function createCattleDrive(options: {
  websocket: boolean;
  amqp: string | null;
}): CattleDrive {
  return {
    connections: createConnectionRegistry(),
    correlations: createCorrelations(),
    websocket: options.websocket,
    amqpUrl: options.amqp ? withoutCredentials(options.amqp) : null,
  };
}

/** amqp://USER:PASS@HOST:PORT/VHOST → amqp://HOST:PORT/VHOST: a client logs in as its account. */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.href.replace(/\/$/, parsed.pathname === "/" ? "/" : "");
}
