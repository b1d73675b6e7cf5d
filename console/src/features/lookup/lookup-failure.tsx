import { Alert } from "@mui/material";
import type { FeResponse } from "../../lib/fe-client.ts";
import type { LookupResult } from "../../lib/wire-types.ts";

/** Says in words why a lookup found nothing; the tree below still shows the whole answer. */
export function LookupFailure({ result }: { result: FeResponse<LookupResult> }) {
  const text = describeLookupFailure(result);
  if (text === null) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {text}
    </Alert>
  );
}

/** Null when the lookup found a document; else one sentence saying why it did not. */
export function describeLookupFailure(result: FeResponse<LookupResult>): string | null {
  const data = result.data as { raw?: unknown; error?: unknown; detail?: unknown } | null;
  if (!result.ok) {
    const reason = describeReason(data?.detail);
    return result.unreachable
      ? `Lookup failed: ${reason}`
      : `Lookup failed (HTTP ${result.status}): ${reason}`;
  }
  if (data?.raw !== null && data?.raw !== undefined) return null;
  // A real cattle_grid answers 200 {} for anything it could not fetch, and says no more.
  if (data?.error === undefined) {
    return "Not found: nothing answered at this URI, and the server gave no reason.";
  }
  return `Not found: ${describeReason(data.error)}`;
}

/** A reason as text: a string as it is, FastAPI's 422 list as "loc: msg" lines. */
function describeReason(reason: unknown): string {
  if (typeof reason === "string") return reason;
  if (Array.isArray(reason)) {
    return reason
      .map(
        (item: { loc?: unknown[]; msg?: unknown }) =>
          `${(item.loc ?? []).join(".")}: ${String(item.msg ?? "invalid")}`,
      )
      .join("; ");
  }
  return reason === undefined ? "no reason given" : String(reason);
}
