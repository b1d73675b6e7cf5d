import { Hono } from "hono";
import { z } from "zod";
import { findActor } from "../actors/index.ts";
import { lookupUri } from "../lookup/lookup.ts";
import { runMethod } from "../methods/index.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { readJsonBody, sendDetail, sendValidationErrors } from "./errors.ts";

const lookupBody = z.object({ actorId: z.string(), uri: z.string() });
const triggerBody = z.looseObject({ actor: z.string() });

/** POST /actor/lookup and POST /actor/trigger/{method}. */
export function createActorRoutes(services: Services) {
  const ownsActor = async (accountId: number, actorId: string) => {
    const actor = await findActor(services.db, actorId);
    return actor !== undefined && actor.accountId === accountId && !actor.deleted;
  };

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
      if (!(await ownsActor(c.get("account").id, body.value.actorId))) {
        return sendDetail(c, 400, "actorId is not an actor of this account");
      }
      const result = await lookupUri(services, {
        actorId: body.value.actorId,
        uri: body.value.uri,
        timeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
      });
      return c.json(result);
    })
    .post("/actor/trigger/:method", async (c) => {
      const body = await readJsonBody(c, triggerBody);
      if (!body.ok) return body.response;
      const accountId = c.get("account").id;
      if (!(await ownsActor(accountId, body.value.actor))) {
        return sendDetail(c, 400, "actor is not an actor of this account");
      }
      // The work happens after the answer; results and failures arrive on the streams.
      runMethod(services, { accountId, method: c.req.param("method"), body: body.value });
      return c.json(null, 202);
    });
}
