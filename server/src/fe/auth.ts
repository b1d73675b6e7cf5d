import { createMiddleware } from "hono/factory";
import { checkToken, type Account } from "../accounts/index.ts";
import type { Services } from "../services.ts";
import { sendDetail } from "./errors.ts";

/** The caller's account, and the token it came with (sign-out ends it; streams re-check it). */
export type FeEnv = { Variables: { account: Account; token: string } };

/** Every /fe route but sign-in: a valid bearer token, or 401 with the reason. */
export function requireAccount(services: Services) {
  return createMiddleware<FeEnv>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      return sendDetail(
        c,
        401,
        header ? "Authorization must be: Bearer TOKEN" : "Not authenticated",
        {
          "WWW-Authenticate": "Bearer",
        },
      );
    }
    const check = await checkToken(services.db, match[1]!);
    if (!check.ok) return sendDetail(c, 401, check.reason, { "WWW-Authenticate": "Bearer" });
    c.set("account", check.account);
    c.set("token", match[1]!);
    await next();
  });
}
