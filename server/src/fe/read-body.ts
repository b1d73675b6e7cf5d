import type { Context } from "hono";
import type { z } from "zod";
import { nestsDeeperThan, tooDeepReason } from "../activitypub/json-depth.ts";
import { sendValidationErrors, toValidationErrors } from "./errors.ts";

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** Reads and validates a JSON body; invalid JSON, JSON nested too deeply or a wrong shape answers 422 in FastAPI's shape. */
export async function readJsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<Parsed<T>> {
  const text = await c.req.text();
  if (nestsDeeperThan(text)) {
    return {
      ok: false,
      response: sendValidationErrors(c, [
        { loc: ["body"], msg: tooDeepReason, type: "json_invalid" },
      ]),
    };
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      response: sendValidationErrors(c, [
        {
          loc: ["body", 0],
          msg: `JSON decode error: ${(error as Error).message}`,
          type: "json_invalid",
        },
      ]),
    };
  }
  const result = schema.safeParse(input);
  if (!result.success)
    return {
      ok: false,
      response: sendValidationErrors(c, toValidationErrors(result.error.issues, "body", input)),
    };
  return { ok: true, value: result.data };
}
