// Proxy mode with --upstream-amqp: what Corral answers itself in front of cattle_grid, from the
// events it records (docs/proxy-history.md). The retained history (`/fe/account/events/…`) and
// the incoming, outgoing and error streams with event ids are the same routes as Corral's own
// server has, for the account the upstream says the token belongs to; the info answer gains a
// `corralProxy` member that tells the console so, and where the history comes from. Everything
// else goes upstream unchanged.

import { Hono, type Context, type Handler } from "hono";
import { createHistoryRoutes } from "../fe/history.ts";
import { createStreamRoutes } from "../fe/streams.ts";
import type { FeEnv } from "../fe/auth.ts";
import type { Recorder } from "../recording/recorder.ts";
import type { Services } from "../services.ts";
import { requireUpstreamAccount, type UpstreamAccounts } from "./upstream-account.ts";

/** What the info answer gains: the console reads it (console/src/lib/server-capabilities.ts). */
export interface CorralProxyInfo {
  /** Corral answers /fe/account/events and the streams with event ids from its own record. */
  events: true;
  /** In words: where the history comes from. */
  historySource: string;
  /** Whether the broker connection is up now. */
  recording: boolean;
  /** Events kept per stream and account. */
  retention: number;
}

export function createRecordedRoutes(
  services: Services,
  recorder: Recorder,
  accounts: UpstreamAccounts,
  forward: Handler,
) {
  const local = new Hono<FeEnv>().basePath("/fe");
  local.use("*", requireUpstreamAccount(services.db, accounts));
  local.route("/", createHistoryRoutes(services));
  local.route("/", createStreamRoutes(services, { tokenWatch: accounts.tokenWatch }));

  const app = new Hono();
  app.get("/fe/account/info", async (c, next) => {
    const response = await forward(c, next);
    return withProxyInfo(c, response as Response, services, recorder);
  });
  app.get("/fe/account/events/:stream", (c) => local.fetch(c.req.raw, c.env));
  // combined stays cattle_grid's: its ids are cattle_grid's history_ids.
  app.get("/fe/account/stream/:stream{incoming|outgoing|error}", (c) =>
    local.fetch(c.req.raw, c.env),
  );
  return app;
}

async function withProxyInfo(
  c: Context,
  response: Response,
  services: Services,
  recorder: Recorder,
): Promise<Response> {
  if (response.status !== 200) return response;
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (typeof body !== "object" || body === null) {
    return c.json({ detail: "The upstream's answer to /fe/account/info is not JSON" }, 502);
  }
  const status = recorder.status();
  const info: CorralProxyInfo = {
    events: true,
    historySource:
      `Corral records every event of this account from cattle_grid's RabbitMQ at ` +
      `${status.source} into its own database, and keeps the newest ` +
      `${services.config.streamCap.toLocaleString("en")} of each stream.`,
    recording: status.broker.connected,
    retention: services.config.streamCap,
  };
  return c.json({ ...body, corralProxy: info });
}
