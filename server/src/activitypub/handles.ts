import { isPrivateHost } from "./addresses.ts";
import type { ExchangeRequest } from "./exchange.ts";
import type { Outgoing } from "./outgoing-types.ts";
import { signedGet } from "./signing.ts";

// Resolving `acct:user@host` / `@user@host` through WebFinger, keeping the reason on failure.
// Fedify's lookupWebFinger() always uses https and answers null on any failure; we need the
// reason for the console, and test and demo servers on loopback speak plain http. So: https
// always, and plain http only for loopback/private hosts when private addresses are allowed
// (remove that branch if tests and demos ever run behind TLS).

export interface Handle {
  user: string;
  host: string;
}

/** `acct:user@host`, `@user@host` or `user@host` → its parts; anything else (a URL) → null. */
export function parseHandle(input: string): Handle | null {
  const match = /^(?:acct:|@)?([^@\s/:]+)@([^@\s/]+)$/.exec(input.trim());
  if (!match) return null;
  return { user: match[1]!, host: match[2]!.toLowerCase() };
}

export type HandleResult = { ok: true; id: string } | { ok: false; reason: string };

/** The ActivityPub id a handle's WebFinger document links to (`rel=self`, an AS2 type). */
export async function resolveHandle(
  handle: Handle,
  options: { outgoing: Outgoing; timeoutMs: number; trace?: ExchangeRequest[] },
): Promise<HandleResult> {
  const resource = `acct:${handle.user}@${handle.host}`;
  const query = `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
  const hostname = new URL(`http://${handle.host}`).hostname;
  const schemes =
    options.outgoing.allowPrivate && isPrivateHost(hostname) ? ["http", "https"] : ["https"];
  const reasons: string[] = [];
  for (const scheme of schemes) {
    const result = await signedGet(`${scheme}://${handle.host}${query}`, null, {
      outgoing: options.outgoing,
      timeoutMs: options.timeoutMs,
      accept: "application/jrd+json, application/json",
      trace: options.trace,
    });
    if (!result.ok) {
      reasons.push(`WebFinger for ${resource}: ${result.reason}`);
      // The server answered over this scheme: the other one will not know better.
      if (result.status !== undefined) break;
      continue;
    }
    const id = selfLink(result.document);
    if (id) return { ok: true, id };
    return { ok: false, reason: `WebFinger for ${resource} has no ActivityPub self link` };
  }
  return { ok: false, reason: reasons.join("; ") };
}

/** The ActivityPub id a WebFinger document links to as `self` (an AS2 type). */
export function selfLink(document: unknown): string | undefined {
  const links = (document as { links?: unknown })?.links;
  if (!Array.isArray(links)) return undefined;
  for (const link of links as { rel?: unknown; type?: unknown; href?: unknown }[]) {
    if (link?.rel !== "self" || typeof link.href !== "string") continue;
    const type = typeof link.type === "string" ? link.type : "";
    if (type === "application/activity+json" || type.startsWith("application/ld+json"))
      return link.href;
  }
  return undefined;
}
