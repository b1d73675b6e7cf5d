import { Hono } from "hono";
import { z } from "zod";
import { describeAccount } from "../accounts/account-info.ts";
import { actorNameRule, createActorForAccount, handleRule } from "../accounts/create-actor.ts";
import { findUnservedActors } from "../actors/unserved.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendDetail } from "./errors.ts";
import { readJsonBody } from "./read-body.ts";
import type { AccountInfo } from "./wire.ts";

export { backend, protocol } from "../accounts/account-info.ts";

const createBody = z.object({
  baseUrl: z.string(),
  handle: handleRule.nullish(),
  name: actorNameRule.nullish(),
});

/** GET /account/info and POST /account/create. */
export function createAccountRoutes(services: Services) {
  return new Hono<FeEnv>()
    .get("/account/info", async (c) => {
      const account = c.get("account");
      const described = await describeAccount(services, account);
      const unserved = await findUnservedActors(services.db, services.config.baseUrls, account.id);
      const info: AccountInfo = {
        ...described,
        // Corral's addition, only when there are some: actors on base URLs not served here.
        ...(unserved.length > 0 ? { actorsNotServed: unserved } : {}),
      };
      return c.json(info);
    })
    .post("/account/create", async (c) => {
      const body = await readJsonBody(c, createBody);
      if (!body.ok) return body.response;
      const result = await createActorForAccount(services, c.get("account"), {
        baseUrl: body.value.baseUrl,
        handle: body.value.handle,
        name: body.value.name,
      });
      if (!result.ok) return sendDetail(c, result.status, result.reason);
      return c.json(result.document, 201);
    });
}
