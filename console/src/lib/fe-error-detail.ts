import type { FeError } from "./fe-client.ts";

/** One entry of a 422: where (`body.data`) and why. */
export type ProblemLine = { loc: string; msg: string };

/**
 * The reason in an error body, FastAPI's shape: `{"detail": "why"}`, or for a 422
 * `{"detail": [{"loc": ["body", "data"], "msg": "…"}]}`. Anything else is shown as its JSON.
 */
export function readErrorDetail(body: unknown): { detail: string; problems: ProblemLine[] } {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") return { detail, problems: [] };
  if (Array.isArray(detail)) {
    const problems = detail.map(readProblem);
    if (problems.every((problem) => problem !== null)) {
      const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
      return { detail: `the data has ${count}`, problems };
    }
  }
  return { detail: JSON.stringify(body), problems: [] };
}

function readProblem(value: unknown): ProblemLine | null {
  const { loc, msg } = (value ?? {}) as { loc?: unknown; msg?: unknown };
  if (!Array.isArray(loc) || typeof msg !== "string") return null;
  return { loc: loc.map(String).join("."), msg };
}

/** A failed call in one line: "HTTP 409: why", or the one sentence for a server that is away. */
export function describeFeError(error: FeError): string {
  const { detail } = readErrorDetail(error.data);
  return error.unreachable ? detail : `HTTP ${error.status}: ${detail}`;
}
