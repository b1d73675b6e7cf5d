// GET /account/cattle-drive (Corral's addition): where this server speaks Cattle Drive, cattle_grid's
// own client protocol (docs/cattle-drive.md), and which clients of the caller's account are
// connected to this process.

import { Hono } from "hono";
import { AMQP_EXCHANGE, WEBSOCKET_PATH } from "../cattle-drive/runtime.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import type { CattleDriveInfo } from "./wire.ts";

export function createCattleDriveRoutes(services: Services) {
  return new Hono<FeEnv>().get("/account/cattle-drive", (c) => {
    const drive = services.cattleDrive;
    const account = c.get("account");
    // The endpoint shares this server's port: the address the caller reached it at, as ws(s).
    const url = new URL(c.req.url);
    const forwardedProto = services.config.trustProxy ? c.req.header("x-forwarded-proto") : null;
    const secure = (forwardedProto ?? url.protocol.slice(0, -1)) === "https";
    const info: CattleDriveInfo = {
      websocket: drive?.websocket
        ? { url: `${secure ? "wss" : "ws"}://${url.host}${WEBSOCKET_PATH}` }
        : null,
      amqp: drive?.amqpUrl ? { url: drive.amqpUrl, exchange: AMQP_EXCHANGE } : null,
      connections: (drive?.connections.list(account.id) ?? []).map((connection) => ({
        ...connection,
      })),
    };
    // RabbitMQ holds AMQP clients' connections; Corral sees only its own.
    if (drive?.amqpUrl) info.amqpConnectionsKnown = false;
    return c.json(info);
  });
}
