import { Alert } from "@mui/material";
import type { FeResponse } from "../../lib/fe-client.ts";
import type { LookupResult } from "../../lib/wire-types.ts";

/** Says in words why a lookup found nothing; the tree below still shows the whole answer. */
export function LookupFailure({ result }: { result: FeResponse<LookupResult> }) {
  const data = result.data as { raw?: unknown; error?: unknown; detail?: unknown } | null;
  if (result.ok && data?.raw !== null) return null;
  const prefix = result.ok ? "Not found" : `Lookup failed (HTTP ${result.status || "no answer"})`;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {prefix}: {describeReason(data?.error ?? data?.detail)}
    </Alert>
  );
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
