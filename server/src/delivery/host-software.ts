import type { Services } from "../services.ts";
import { outgoingOf } from "../activitypub/outgoing.ts";
import { isObject } from "../activitypub/parse.ts";
import { signedGet } from "../activitypub/signing.ts";
import { findKnownActorOn } from "./host-check.store.ts";
import { findHostSoftware, findKnownUrl, saveHostSoftware } from "./attempts.store.ts";

// A remote host's software, from its NodeInfo (docs/api.md#get-feaccounthostshost): read when the
// host is first looked at and then at most daily; null when it has none or could not be read.

const DAY_MS = 86_400_000;
const TIMEOUT_MS = 5_000;

export type Software = { name: string; version: string | null } | null;

export async function hostSoftware(
  services: Services,
  accountId: number,
  host: string,
  now = Date.now(),
): Promise<Software> {
  const known = await findHostSoftware(services.db, host);
  if (known && now - known.checkedAt < DAY_MS)
    return known.name === null ? null : { name: known.name, version: known.version };
  const origin = await originOf(services, accountId, host);
  const found = await readNodeInfo(services, origin);
  await saveHostSoftware(services.db, host, found.ok ? found.software : null, now);
  return found.ok ? found.software : null;
}

/** The scheme we know the host by (an inbox we delivered to, else an actor of it we know), else https. */
export async function originOf(services: Services, accountId: number, host: string) {
  const url =
    (await findKnownUrl(services.db, accountId, host)) ??
    (await findKnownActorOn(services.db, accountId, host));
  try {
    if (url) return new URL(url).origin;
  } catch {
    // an inbox that is no URL: https below
  }
  return `https://${host}`;
}

export type NodeInfoResult =
  | { ok: true; software: { name: string; version: string | null }; note?: string }
  | { ok: false; reason: string };

/** NodeInfo discovery (/.well-known/nodeinfo) and its document's `software`. */
export async function readNodeInfo(services: Services, origin: string): Promise<NodeInfoResult> {
  const options = {
    outgoing: outgoingOf(services),
    timeoutMs: TIMEOUT_MS,
    accept: "application/json",
  };
  const index = await signedGet(`${origin}/.well-known/nodeinfo`, null, options);
  if (!index.ok) return { ok: false, reason: index.reason };
  const links =
    isObject(index.document) && Array.isArray(index.document.links) ? index.document.links : [];
  const schemaLinks = (key: "rel" | "type") =>
    links
      .filter(isObject)
      .map((l) => ({ rel: l[key], href: l.href }))
      .filter(
        (l): l is { rel: string; href: string } =>
          typeof l.rel === "string" &&
          l.rel.includes("nodeinfo.diaspora.software/ns/schema/") &&
          typeof l.href === "string",
      )
      .sort((a, b) => b.rel.localeCompare(a.rel));
  let hrefs = schemaLinks("rel");
  let note: string | undefined;
  if (hrefs.length === 0) {
    // cattle_grid 0.5.22 names the schema in `type`: read it, and say so (NodeInfo asks for rel).
    hrefs = schemaLinks("type");
    if (hrefs.length > 0)
      note = `its NodeInfo index names the schema in "type" where NodeInfo asks for "rel"`;
  }
  if (hrefs.length === 0)
    return { ok: false, reason: `${origin}/.well-known/nodeinfo names no NodeInfo document` };
  const document = await signedGet(new URL(hrefs[0]!.href, origin).href, null, options);
  if (!document.ok) return { ok: false, reason: document.reason };
  const software = isObject(document.document) ? document.document.software : undefined;
  if (!isObject(software) || typeof software.name !== "string")
    return { ok: false, reason: `${hrefs[0]!.href} names no software` };
  return {
    ok: true,
    ...(note ? { note } : {}),
    software: {
      name: software.name,
      version: typeof software.version === "string" ? software.version : null,
    },
  };
}
