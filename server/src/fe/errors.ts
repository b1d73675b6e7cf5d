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
