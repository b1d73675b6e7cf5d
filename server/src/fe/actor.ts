import { Hono } from "hono";
import { z } from "zod";
import type { Exchange } from "../activitypub/exchange.ts";
import { lookupUri } from "../lookup/lookup.ts";
import { anyMethodBody, findMethod, findOwnActor } from "../methods/index.ts";
import { acceptTrigger } from "../triggers/index.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendDetail, sendValidationErrors } from "./errors.ts";
import { readJsonBody } from "./read-body.ts";

const lookupBody = z.object({ actorId: z.string(), uri: z.string() });

/** POST /actor/lookup and POST /actor/trigger/{method}. */
export function createActorRoutes(services: Services) {
  return new Hono<FeEnv>()
    .post("/actor/lookup", async (c) => {
      const timeoutParam = c.req.query("timeout");
      const timeout = timeoutParam === undefined ? undefined : Number(timeoutParam);
      if (timeout !== undefined && !(timeout > 0 && timeout <= 600)) {
        return sendValidationErrors(c, [
          {
            loc: ["query", "timeout"],
            msg: "Input should be a number of seconds between 0 and 600",
            type: "float_parsing",
          },
        ]);
      }
      const body = await readJsonBody(c, lookupBody);
      if (!body.ok) return body.response;
      if (!(await findOwnActor(services, c.get("account").id, body.value.actorId)).ok) {
        return sendDetail(c, 400, "actorId is not an actor of this account");
      }
      // Corral's addition: what was sent and what came back (docs/lookup-exchange.md).
      const exchange: Exchange = { requests: [] };
      const result = await lookupUri(
        services,
        {
          actorId: body.value.actorId,
          uri: body.value.uri,
          timeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
        },
        exchange,
      );
      return c.json({ ...result, exchange });
    })
    .post("/actor/trigger/:method", async (c) => {
      const method = c.req.param("method");
      // A known method's body is checked whole before anything runs (422); an unknown method
      // is cattle_grid's PerformRequest and answered on the error stream, as cattle_grid does.
      const body = await readJsonBody(c, findMethod(method)?.body ?? anyMethodBody);
      if (!body.ok) return body.response;
      const accountId = c.get("account").id;
      const own = await findOwnActor(services, accountId, String(body.value.actor));
      if (!own.ok) return sendDetail(c, 400, "actor is not an actor of this account");
      // Recorded before the answer, run after it: results and failures arrive on the streams
      // and in the trigger's record (GET /fe/actor/triggers/{id}).
      const id = await acceptTrigger(services, {
        accountId,
        actorId: own.actor.id,
        method,
        body: body.value,
      });
      return c.json(null, 202, { "Corral-Trigger-Id": id });
    });
}
