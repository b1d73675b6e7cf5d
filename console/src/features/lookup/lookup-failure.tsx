import { Alert, AlertTitle } from "@mui/material";
import type { FeResponse } from "../../lib/fe-client.ts";
import type { LookupFailure as Failure, LookupResult } from "../../lib/wire-types.ts";

/** Says in words why a lookup found nothing; the tree below still shows the whole answer. */
export function LookupFailure({ result }: { result: FeResponse<LookupResult> }) {
  const text = describeLookupFailure(result);
  if (text === null) return null;
  const data = result.data as (Partial<Failure> & { raw?: unknown }) | null;
  // Corral names the kind of failure (a DNS failure is not "not found"); others say less.
  const kind = result.ok && data?.kind ? describeKind(data) : null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {kind ? <AlertTitle>{kind}</AlertTitle> : null}
      {kind ? describeReason(data?.error) : text}
    </Alert>
  );
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  410: "Gone",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).host : "the host";
  } catch {
    return "the host";
  }
}

/** The failure's kind in a few words (the server's `kind`, a Corral addition; else generic). */
export function describeKind(failure: Partial<Failure> | null): string {
  const url = failure?.url;
  switch (failure?.kind) {
    case "dns":
      return `Could not resolve host ${hostOf(url)}`;
    case "refused":
      return `Connection refused by ${hostOf(url)}`;
    case "timeout":
      return failure.seconds === undefined ? "Timed out" : `Timed out after ${failure.seconds} s`;
    case "http": {
      const status = failure.status;
      if (status === undefined) return "The server answered with an error";
      return `${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ""}`;
    }
    case "not-json":
      return "Not an ActivityPub document";
    case "blocked":
      return `Refused: ${hostOf(url)} is a private address`;
    case "not-found":
      return "Not found";
    case "invalid":
      return "Not a URI or handle";
    case "no-key":
      return "The actor cannot sign here";
    case "unreachable":
      return `Could not reach ${hostOf(url)}`;
    default:
      return "Lookup failed";
  }
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
