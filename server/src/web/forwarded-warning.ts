// Behind a reverse proxy without --trust-proxy, every client has the proxy's address, so one
// brute-forcer's failed sign-ins throttle everyone (issue 25, 7b). A request that carries
// X-Forwarded-For while the header is ignored is the sign of that: say once what to set.

import type { IncomingHttpHeaders } from "node:http";
import { getLogger } from "@logtape/logtape";

const logger = getLogger(["corral", "http"]);

let warned = false;

/** Logs one warning per process the first time a request carries X-Forwarded-For unbelieved. */
export function warnOfIgnoredForwarding(headers: IncomingHttpHeaders, trustProxy: boolean): void {
  if (warned || trustProxy || headers["x-forwarded-for"] === undefined) return;
  warned = true;
  logger.warn(
    "Requests carry X-Forwarded-For but --trust-proxy is off, so every client behind the proxy " +
      "shares its address for sign-in throttling: behind a reverse proxy you run, set " +
      "--trust-proxy (CORRAL_TRUST_PROXY=1); otherwise ignore this (the header is ignored).",
  );
}
