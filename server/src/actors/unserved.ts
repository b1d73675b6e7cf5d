import type { Db } from "../db/db.ts";
import { listActorsOffBaseUrls } from "./actors.store.ts";

// Actors whose base URL this server does not serve (docs/unserved-actors.md): a database made at
// http://localhost:3000 and started with --port 4300 keeps its actors on :3000, where nothing
// answers for them. Said once at start (stderr) and beside the actors in /fe/account/info.

export interface UnservedActor {
  id: string;
  name: string;
  baseUrl: string;
  /** Why it cannot be reached, and the flag that serves it, in words. */
  reason: string;
}

export async function findUnservedActors(
  db: Db,
  baseUrls: string[],
  accountId?: number,
): Promise<UnservedActor[]> {
  const actors = await listActorsOffBaseUrls(db, baseUrls, { accountId });
  return actors.map((actor) => ({
    id: actor.id,
    name: actor.name,
    baseUrl: actor.baseUrl,
    reason: `${actor.id} lives on ${actor.baseUrl}, which this server does not serve (it serves ${baseUrls.join(", ")}): its id and WebFinger answer 404 here. Start the server with ${serveFlags(baseUrls, [actor.baseUrl])} to serve it.`,
  }));
}

/** The one start-up line naming the actors and the flags that serve them; null when none. */
export function describeUnservedAtStart(
  actors: UnservedActor[],
  baseUrls: string[],
): string | null {
  if (actors.length === 0) return null;
  const origins = [...new Set(actors.map((a) => a.baseUrl))];
  const shown = actors.slice(0, 10).map((a) => `${a.name} (${a.id})`);
  const more = actors.length > shown.length ? ` and ${actors.length - shown.length} more` : "";
  const one = actors.length === 1;
  const them = one ? "it" : "them";
  return `Warning: ${one ? "1 actor lives" : `${actors.length} actors live`} on ${origins.join(", ")}, which this server does not serve (it serves ${baseUrls.join(", ")}): ${shown.join(", ")}${more}; ${one ? "its id" : "their ids"} and WebFinger answer 404. Start with ${serveFlags(baseUrls, origins)} to serve ${them}.`;
}

/**
 * `--base-url` for each origin to serve: the missing ones, and those served now (the flag replaces
 * the default); where a missing one differs from a served one by its port only, that port too.
 */
function serveFlags(baseUrls: string[], missing: string[]): string {
  const flags = [...new Set([...missing, ...baseUrls])].map((url) => `--base-url ${url}`);
  const servedHosts = new Set(baseUrls.map((url) => new URL(url).hostname));
  const ports = missing
    .map((url) => new URL(url))
    .filter((url) => servedHosts.has(url.hostname))
    .map((url) => url.port || (url.protocol === "https:" ? "443" : "80"));
  const reach =
    ports.length > 0
      ? ` (listening where that URL arrives: --port ${ports[0]}, or a proxy from it)`
      : "";
  return `${flags.join(" ")}${reach}`;
}
