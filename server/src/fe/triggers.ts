import { Hono } from "hono";
import { z } from "zod";
import { readTriggerRecord, redeliver } from "../triggers/index.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendDetail } from "./errors.ts";
import { readJsonBody } from "./read-body.ts";

const redeliverBody = z.object({ inbox: z.string().optional() }).loose();

/** GET /actor/triggers/{id} and POST /actor/triggers/{id}/redeliver: the caller's own only. */
export function createTriggerRoutes(services: Services) {
  return new Hono<FeEnv>()
    .get("/actor/triggers/:id", async (c) => {
      const record = await readTriggerRecord(services, c.get("account").id, c.req.param("id"));
      if (!record) return sendDetail(c, 404, "No such trigger");
      return c.json(record);
    })
    .post("/actor/triggers/:id/redeliver", async (c) => {
      // An empty body means "every failed delivery of the trigger".
      const text = await c.req.raw.clone().text();
      let inbox: string | null = null;
      if (text.trim() !== "") {
        const body = await readJsonBody(c, redeliverBody);
        if (!body.ok) return body.response;
        inbox = body.value.inbox ?? null;
      }
      const found = await redeliver(services, c.get("account").id, c.req.param("id"), inbox);
      if (!found) return sendDetail(c, 404, "No such trigger");
      return c.json(null, 202);
    });
}
