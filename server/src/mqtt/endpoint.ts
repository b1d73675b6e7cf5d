// Cattle Drive over MQTT 5 over WebSocket at /ws, on the HTTP server's own port (ADR 0013:
// no maintained broker library speaks MQTT 5, so this is a small endpoint over mqtt-packet and
// ws). Corral is the broker's only other party: there is no client-to-client routing, only the
// account's requests in and its answers and events out.

import type { IncomingMessage, Server } from "node:http";
import { isIP } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { SignInThrottle } from "../accounts/index.ts";
import { WEBSOCKET_PATH } from "../cattle-drive/runtime.ts";
import type { Services } from "../services.ts";
import { createRateBuckets, defaultMqttLimits, type MqttLimits } from "./limits.ts";
import { runSession } from "./session.ts";

export interface MqttEndpoint {
  close(): Promise<void>;
}

export function attachMqttEndpoint(
  server: Server,
  services: Services,
  options: { throttle: SignInThrottle; limits?: Partial<MqttLimits> },
): MqttEndpoint {
  const limits = { ...defaultMqttLimits, ...options.limits };
  const correlations = services.cattleDrive!.correlations;
  const rates = createRateBuckets(limits);
  const wss = new WebSocketServer({
    noServer: true,
    // A packet's header adds a few bytes; above this the WebSocket closes with 1009.
    maxPayload: limits.maxPacketBytes + 16,
    handleProtocols: (protocols) => (protocols.has("mqtt") ? "mqtt" : false),
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== WEBSOCKET_PATH) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) =>
      runSession(ws, {
        services,
        throttle: options.throttle,
        correlations,
        limits,
        rates,
        address: clientAddress(req, services.config.trustProxy),
      }),
    );
  };
  server.on("upgrade", onUpgrade);
  return {
    close() {
      server.off("upgrade", onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      return new Promise((done) => wss.close(() => done()));
    },
  };
}

/** The peer, or behind --trust-proxy the last X-Forwarded-For address (as sign-in reads it). */
function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const peer = req.socket.remoteAddress ?? "unknown";
  if (!trustProxy) return peer;
  const header = req.headers["x-forwarded-for"];
  const last = (Array.isArray(header) ? header.at(-1) : header)?.split(",").at(-1)?.trim() ?? "";
  return isIP(last) !== 0 ? last : peer;
}
