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
import type { HostCheckLine } from "../delivery/host-health.ts";
import type { HostDetail } from "./wire.ts";
import { readInbound } from "../receive/refusals.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendDetail } from "./errors.ts";

/**
 * GET /account/hosts, GET /account/hosts/{host} (both directions, docs/api.md#delivery-health) and
 * POST /account/hosts/{host}/stop|resume|retry.
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
    .post("/account/hosts/:host/check", async (c) => {
      const accountId = c.get("account").id;
      const host = c.req.param("host");
      if (!acceptsNdjson(c.req.header("Accept")))
        return c.json(await checkHost(services, accountId, host));
      return streamCheck(services, accountId, host);
    })
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

const NDJSON = "application/x-ndjson";

/** A client that names NDJSON in Accept gets the check line by line; any other gets one JSON. */
function acceptsNdjson(accept: string | undefined): boolean {
  return (accept ?? "")
    .split(",")
    .some((part) => part.split(";")[0]!.trim().toLowerCase() === NDJSON);
}

/**
 * The check as NDJSON (docs/api.md#post-feaccounthostshostcheck): `{"running": step}` as a step
 * starts, the step as it completes, and last the whole answer, so a console shows each step when it
 * is known.
 */
function streamCheck(services: Services, accountId: number, host: string): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: HostCheckLine) => {
        if (open) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      try {
        send(await checkHost(services, accountId, host, send));
      } catch (error) {
        // Never an unfinished answer: the last line says the check itself broke, in words.
        send({ steps: [], verdict: `The check could not run: ${(error as Error).message}` });
      }
      if (open) controller.close();
    },
    cancel() {
      open = false;
    },
  });
  return new Response(body, {
    headers: { "Content-Type": `${NDJSON}; charset=utf-8`, "Cache-Control": "no-store" },
  });
}
