import { Hono } from "hono";
import { readRefusals, refusalReasons, type RefusalReason } from "../receive/refusals.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendValidationErrors } from "./errors.ts";
import type { ValidationError } from "./wire.ts";

/** GET /account/refusals?host=&reason=&before=&limit=: what the inbox refused, newest first. */
export function createRefusalRoutes(services: Services) {
  return new Hono<FeEnv>().get("/account/refusals", async (c) => {
    const errors: ValidationError[] = [];
    const bad = (name: string, msg: string) =>
      errors.push({ loc: ["query", name], msg, type: "value_error" });
    const host = c.req.query("host") || undefined;
    const reason = c.req.query("reason") || undefined;
    if (reason !== undefined && !refusalReasons.includes(reason as RefusalReason))
      bad("reason", `reason must be one of ${refusalReasons.join(", ")}`);
    const before = integer(c.req.query("before"));
    if (before === null) bad("before", "before must be a refusal id (a whole number)");
    const given = integer(c.req.query("limit"));
    const limit = given ?? 100;
    if (given === null || limit < 1 || limit > 500)
      bad("limit", "limit must be a whole number from 1 to 500");
    if (errors.length > 0) return sendValidationErrors(c, errors);
    return c.json(
      await readRefusals(services, c.get("account"), {
        host,
        reason: reason as RefusalReason | undefined,
        before: before ?? undefined,
        limit,
      }),
    );
  });
}

/** undefined when absent, null when not a whole number. */
function integer(value: string | undefined): number | null | undefined {
  if (value === undefined || value === "") return undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}
