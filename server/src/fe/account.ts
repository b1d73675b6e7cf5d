import { Hono } from "hono";
import { z } from "zod";
import { allowedBaseUrls } from "../accounts/index.ts";
import { actorDocument, createActor, listActors } from "../actors/index.ts";
import { findUnservedActors } from "../actors/unserved.ts";
import { methodInformationFor } from "../methods/catalog.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendDetail } from "./errors.ts";
import { readJsonBody } from "./read-body.ts";
import type { AccountInfo } from "./wire.ts";
import { backendVersion } from "../version.ts";

export const backend = { name: "corral", version: backendVersion };
export const protocol = { name: "CattleDrive", version: "0.1.0" };

const createBody = z.object({
  baseUrl: z.string(),
  handle: z
    .string()
    .regex(
      /^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,63}$/,
      "handle may hold letters, digits, _ . - (at most 64)",
    )
    .nullish(),
  name: z.string().max(200).nullish(),
});

/** GET /account/info and POST /account/create. */
export function createAccountRoutes(services: Services) {
  return new Hono<FeEnv>()
    .get("/account/info", async (c) => {
      const account = c.get("account");
      const actors = await listActors(services.db, account.id);
      const baseUrls = services.config.baseUrls;
      const unserved = await findUnservedActors(services.db, baseUrls, account.id);
      const info: AccountInfo = {
        accountName: account.name,
        actors: actors.map((a) => ({ id: a.id, name: a.name })),
        baseUrls: allowedBaseUrls(account, services.config.baseUrls),
        backend,
        protocol,
        methodInformation: methodInformationFor(actors.map((a) => a.id)),
        // Corral's addition, only when there are some: actors on base URLs not served here.
        ...(unserved.length > 0 ? { actorsNotServed: unserved } : {}),
      };
      return c.json(info);
    })
    .post("/account/create", async (c) => {
      const body = await readJsonBody(c, createBody);
      if (!body.ok) return body.response;
      const account = c.get("account");
      const baseUrl = normaliseOrigin(body.value.baseUrl);
      if (!baseUrl || !services.config.baseUrls.includes(baseUrl)) {
        return sendDetail(
          c,
          400,
          `baseUrl must be one of this server's: ${services.config.baseUrls.join(", ")}`,
        );
      }
      if (!allowedBaseUrls(account, services.config.baseUrls).includes(baseUrl)) {
        return sendDetail(c, 403, `This account may not create actors on ${baseUrl}`);
      }
      const result = await createActor(services.db, {
        accountId: account.id,
        baseUrl,
        handle: body.value.handle,
        name: body.value.name,
      });
      if (!result.ok) return sendDetail(c, 409, "Duplicate identifier");
      return c.json(await actorDocument(services.db, result.actor), 201);
    });
}

function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.pathname === "/" || url.pathname === "" ? url.origin : null;
  } catch {
    return null;
  }
}
