import { Hono, type Context } from "hono";
import {
  actOnHost,
  holdOf,
  listHosts,
  readHostAttempts,
  type HostAction,
} from "../delivery/hosts.ts";
import { findHost } from "../delivery/hosts.store.ts";
import { hostSoftware } from "../delivery/host-software.ts";
import { readBacklog } from "../delivery/backlog.ts";
import { checkHost } from "../delivery/host-check.ts";
import type { HostDetail } from "../delivery/host-health.ts";
import { readInbound } from "../receive/refusals.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendDetail } from "./errors.ts";

/**
 * GET /account/hosts, GET /account/hosts/{host} (both directions, server.md §11) and POST
 * /account/hosts/{host}/stop|resume|retry.
 */
export function createHostRoutes(services: Services) {
  const act = (action: HostAction, status: 202 | 204) => async (c: Context<FeEnv>) => {
    const host = c.req.param("host") ?? "";
    if (!(await actOnHost(services, c.get("account").id, host, action)))
      return sendDetail(c, 404, `This account never delivered to ${host}`);
    return c.body(null, status);
  };
  return new Hono<FeEnv>()
    .get("/account/hosts", async (c) => c.json(await listHosts(services, c.get("account").id)))
    .get("/account/backlog", async (c) => c.json(await readBacklog(services, c.get("account").id)))
    .get("/account/hosts/:host", async (c) => {
      const account = c.get("account");
      const host = c.req.param("host");
      const [row, inbound, attempts] = await Promise.all([
        findHost(services.db, account.id, host),
        readInbound(services, account, host),
        readHostAttempts(services, account.id, host),
      ]);
      const heard = inbound.lastAcceptedAt !== null || inbound.lastRefusedAt !== null;
      if (!row && !heard) return sendDetail(c, 404, `Nothing was sent to or heard from ${host}`);
      const outbound = row
        ? ((await listHosts(services, account.id)).find((h) => h.host === host) ?? null)
        : null;
      const detail: HostDetail = {
        ...(outbound ?? emptyEntry(host)),
        software: await hostSoftware(services, account.id, host),
        inbound,
        outbound,
        hold: row ? holdOf(row) : null,
        attempts,
      };
      return c.json(detail);
    })
    .post("/account/hosts/:host/check", async (c) =>
      c.json(await checkHost(services, c.get("account").id, c.req.param("host"))),
    )
    .post("/account/hosts/:host/stop", act("stop", 204))
    .post("/account/hosts/:host/resume", act("resume", 202))
    .post("/account/hosts/:host/retry", act("retry", 202));
}

/** The list entry of a host only heard from (nothing delivered to it yet). */
function emptyEntry(host: string) {
  return {
    host,
    state: "ok" as const,
    lastSuccessAt: null,
    lastFailureAt: null,
    failures7d: 0,
    queued: 0,
    failed: [],
    failuresByDay: Array<number>(7).fill(0),
    failingSince: null,
    lastError: null,
  };
}
