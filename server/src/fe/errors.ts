// FastAPI's error shapes, which cattle_grid clients (and the console) expect:
// `{"detail": "why"}` for most errors, and for invalid input 422 with
// `{"detail": [{"loc": ["body", "name"], "msg": "…", "type": "…"}]}`.

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import type { ValidationError } from "./wire.ts";

export function sendDetail(
  c: Context,
  status: ContentfulStatusCode,
  detail: string,
  headers?: Record<string, string>,
) {
  return c.json({ detail }, status, headers);
}

export function sendValidationErrors(c: Context, errors: ValidationError[]) {
  return c.json({ detail: errors }, 422);
}

const pydanticKinds: Record<string, [string, string]> = {
  record: ["dictionary", "dict"],
  array: ["list", "list"],
  boolean: ["boolean", "bool"],
  number: ["number", "float"],
};

/** Turns zod issues into FastAPI validation entries under `where` ("body", "query", "path"). */
export function toValidationErrors(
  issues: z.core.$ZodIssue[],
  where: string,
  input: unknown,
): ValidationError[] {
  return issues.map((issue) => {
    const loc = [where, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))];
    const value = issue.path.reduce<unknown>(
      (v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key],
      input,
    );
    if (issue.code === "invalid_type" && value === undefined && issue.path.length > 0) {
      return { loc, msg: "Field required", type: "missing" };
    }
    if (issue.code === "invalid_type") {
      const expected = String(issue.expected);
      if (expected === "object" && issue.path.length === 0) {
        return {
          loc,
          msg: "Input should be a valid dictionary or object to extract fields from",
          type: "model_attributes_type",
        };
      }
      // Pydantic's words for JSON's kinds, which FastAPI clients show as they are.
      const [word, type] = pydanticKinds[expected] ?? [expected, expected];
      return { loc, msg: `Input should be a valid ${word}`, type: `${type}_type` };
    }
    return { loc, msg: issue.message, type: "value_error" };
  });
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** Reads and validates a JSON body; invalid JSON or shape answers 422 in FastAPI's shape. */
export async function readJsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<Parsed<T>> {
  const text = await c.req.text();
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
