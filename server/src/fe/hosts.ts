import { Hono, type Context } from "hono";
import { actOnHost, listHosts, type HostAction } from "../delivery/hosts.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendDetail } from "./errors.ts";

/** GET /account/hosts and POST /account/hosts/{host}/stop|resume|retry. */
export function createHostRoutes(services: Services) {
  const act = (action: HostAction, status: 202 | 204) => async (c: Context<FeEnv>) => {
    const host = c.req.param("host") ?? "";
    if (!(await actOnHost(services, c.get("account").id, host, action)))
      return sendDetail(c, 404, `This account never delivered to ${host}`);
    return c.body(null, status);
  };
  return new Hono<FeEnv>()
    .get("/account/hosts", async (c) => c.json(await listHosts(services, c.get("account").id)))
    .post("/account/hosts/:host/stop", act("stop", 204))
    .post("/account/hosts/:host/resume", act("resume", 202))
    .post("/account/hosts/:host/retry", act("retry", 202));
}
