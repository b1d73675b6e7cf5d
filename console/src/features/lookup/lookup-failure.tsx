import { Alert, AlertTitle } from "@mui/material";
import type { FeResponse } from "../../lib/fe-client.ts";
import type { LookupFailure as Failure, LookupResult } from "../../lib/wire-types.ts";

/** Says in words why a lookup found nothing; the tree below still shows the whole answer. */
export function LookupFailure({ result }: { result: FeResponse<LookupResult> }) {
  const data = result.data as Partial<Failure> & { raw?: unknown; detail?: unknown };
  if (result.ok && data?.raw !== null) return null;
  const title = result.ok
    ? describeKind(data)
    : `Lookup failed (HTTP ${result.status || "no answer"})`;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      <AlertTitle>{title}</AlertTitle>
      {describeReason(data?.error ?? data?.detail)}
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
