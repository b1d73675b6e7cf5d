import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isValidPublicIPv4Address, isValidPublicIPv6Address } from "@fedify/fedify";

// Every outgoing request (lookup hops, key fetches, deliveries) passes here first. Fedify's
// allowPrivateAddress guards only its own fetches, and we sign and send ourselves, so the check
// is ours. A DNS answer can change between this check and the connection; that gap is accepted.

export type AddressCheck = { ok: true } | { ok: false; reason: string };

/** Whether `url` may be requested: http(s) only, and public hosts only unless private ones are allowed. */
export async function checkOutgoingUrl(url: string, allowPrivate: boolean): Promise<AddressCheck> {
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
  if (isIP(host) !== 0) return isPublicAddress(host) ? { ok: true } : refuse(url, host);
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch (error) {
    return { ok: false, reason: `DNS lookup of ${host} failed: ${(error as Error).message}` };
  }
  if (addresses.length === 0)
    return { ok: false, reason: `DNS lookup of ${host} returned no address` };
  for (const { address } of addresses) {
    if (!isPublicAddress(address)) return refuse(url, `${host} (${address})`);
  }
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
  return {
    ok: false,
    reason: `refused private address ${host} for ${url} (start the server with --allow-private-addresses to allow it)`,
  };
}
