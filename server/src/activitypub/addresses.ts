import { isIP } from "node:net";
import { isValidPublicIPv4Address, isValidPublicIPv6Address } from "@fedify/fedify";

// Every outgoing request (lookup hops, key fetches, deliveries) passes here first. Fedify's
// allowPrivateAddress guards only its own fetches, and we sign and send ourselves, so the check
// is ours. Here: the scheme, and hosts that need no DNS (IP literals, localhost). A name's
// addresses are checked when the connection is made, by pinned-lookup.ts, so that a DNS answer
// cannot change between the check and the connection.

export type AddressCheck = { ok: true } | { ok: false; reason: string };

/** Whether `url` may be requested: http(s) only, and public hosts only unless private ones are allowed. */
export function checkOutgoingUrl(url: string, allowPrivate: boolean): AddressCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `not a URL: ${url}` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { ok: false, reason: `unsupported protocol ${parsed.protocol} in ${url}` };
  }
  if (allowPrivate) return { ok: true };
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) {
    return refuse(url, host);
  }
  if (isIP(host) !== 0 && !isPublicAddress(host)) return refuse(url, host);
  return { ok: true };
}

/** Whether an IP literal is a public unicast address (not loopback, private, link-local, …). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isValidPublicIPv4Address(address);
  if (family === 6) return isValidPublicIPv6Address(address);
  return false;
}

/** Whether `url` names a loopback or private host, where http (not https) WebFinger is allowed. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

function refuse(url: string, host: string): AddressCheck {
  return { ok: false, reason: privateAddressReason(url, host) };
}

/** Why `url` is not requested: its host (as `name (address)` once resolved) is private. */
export function privateAddressReason(url: string, host: string): string {
  return `refused private address ${host} for ${url} (start the server with --allow-private-addresses to allow it)`;
}
