import { Hono } from "hono";
import { z } from "zod";
import {
  createSignInThrottle,
  decoyHash,
  findPasswordHash,
  issueToken,
  revokeToken,
  announceTokensEnded,
  verifyPassword,
} from "../accounts/index.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { clientAddress } from "./client-address.ts";
import { sendDetail } from "./errors.ts";
import { readJsonBody } from "./read-body.ts";
import type { SignInResponse } from "./wire.ts";

const signInBody = z.object({ name: z.string(), password: z.string() });

/** POST /signin: a new token per sign-in; repeated failures are refused with 429. */
export function createSignInRoutes(
  services: Services,
  throttle = createSignInThrottle(services.db),
) {
  return new Hono().post("/signin", async (c) => {
    const body = await readJsonBody(c, signInBody);
    if (!body.ok) return body.response;
    const { name, password } = body.value;
    const address = clientAddress(c, services.config.trustProxy);
    const wait = await throttle.retryAfter(name, address);
    if (wait > 0) {
      return sendDetail(c, 429, `Too many failed sign-ins; try again in ${wait} s`, {
        "Retry-After": String(wait),
      });
    }
    const stored = await findPasswordHash(services.db, name);
    // Unknown names cost a hash check too, so timing does not tell which names exist.
    const valid = await verifyPassword(password, stored?.hash ?? (await decoyHash()));
    if (!stored || !valid) {
      await throttle.recordFailure(name, address);
      return sendDetail(c, 401, "Wrong name or password");
    }
    await throttle.recordSuccess(name);
    const token = await issueToken(services.db, stored.id, services.config.tokenTtlMs);
    return c.json({ token } satisfies SignInResponse);
  });
}

/** POST /signout: ends the caller's token, and only it (204); its streams close at once, everywhere. */
export function createSignOutRoutes(services: Services) {
  return new Hono<FeEnv>().post("/signout", async (c) => {
    await revokeToken(services.db, c.get("token"));
    await announceTokensEnded(services.bus, c.get("account").id);
    return c.body(null, 204);
  });
}
