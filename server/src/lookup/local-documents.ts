import { actorDocument, findActor } from "../actors/index.ts";
import type { Services } from "../services.ts";
import { loadStoredObject, readStoredObjectAs } from "../objects/objects.ts";

// Documents this server hosts, answered without a network round trip: stored objects from the
// objects table, everything else (actors, collections) through our own Fedify router in-process.

export type LocalDocument = { found: true; document: unknown } | { found: false; reason: string };

/** A document on one of our origins as `reader` may see it; `reason` says why there is none. */
export async function loadLocalDocument(
  services: Services,
  uri: string,
  reader: string,
): Promise<LocalDocument> {
  const stored = await loadStoredObject(services, uri);
  if (stored?.deleted) return { found: true, document: tombstone(uri) };
  if (stored) {
    // The same audience rule as a remote server's signed GET: accounts here do not read each
    // other's private objects through lookup.
    const visible = await readStoredObjectAs(services, stored, reader);
    return visible.ok
      ? { found: true, document: visible.data }
      : { found: false, reason: `${uri} answered 403 here: ${visible.reason}` };
  }
  const actor = await findActor(services.db, uri);
  if (actor) return { found: true, document: await actorDocument(services.db, actor) };
  const response = await services.federation.fetch(
    new Request(uri, { headers: { Accept: "application/activity+json" } }),
    { contextData: services },
  );
  if (response.status === 410)
    return { found: true, document: (await readJson(response)) ?? tombstone(uri) };
  if (!response.ok) return { found: false, reason: `${uri} answered ${response.status} here` };
  const document = await readJson(response);
  return document === undefined
    ? { found: false, reason: `${uri} is not an ActivityPub document` }
    : { found: true, document };
}

function tombstone(id: string) {
  return { "@context": "https://www.w3.org/ns/activitystreams", id, type: "Tombstone" };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}
