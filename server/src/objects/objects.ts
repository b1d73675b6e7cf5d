import { randomUUID } from "node:crypto";
import type { Services } from "../services.ts";
import { idsOf, isObject } from "../activitypub/parse.ts";
import { isFollower } from "../follows/followers.store.ts";
import { findObject, insertObject } from "./objects.store.ts";

// Objects and activities our actors published, stored so that their ids dereference.
// Public ones are served to anyone; the rest only to a signed request (authorized fetch) from
// the author, an addressee, or a follower when the author's followers are addressed.

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);

/** A fresh id for something `actorId` publishes, on the actor's own origin. */
export function mintObjectId(actorId: string): string {
  return `${new URL(actorId).origin}/objects/${randomUUID()}`;
}

export async function storeObject(
  services: Services,
  actorId: string,
  data: Record<string, unknown>,
): Promise<void> {
  await insertObject(services.db, data.id, actorId, data);
}

/** A stored object (publish_object / publish_activity) by id. */
export function loadStoredObject(services: Services, id: string) {
  return findObject(services.db, id);
}

/** What `reader` may see of a stored object: the object without bto/bcc, or why not. */
export async function readStoredObjectAs(
  services: Services,
  stored: { data: unknown; actorId: string },
  reader: string,
): Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; reason: string }> {
  const data = stored.data as Record<string, unknown>;
  if (!isPublic(data) && !(await mayRead(services, data, stored.actorId, reader))) {
    return { ok: false, reason: `${reader} is not among the audience of ${String(data.id)}` };
  }
  return { ok: true, data: hideBlindCopies(data) };
}

/** The object as others may see it: bto and bcc removed, at the top and in an embedded object. */
export function hideBlindCopies(data: Record<string, unknown>): Record<string, unknown> {
  const { bto: _bto, bcc: _bcc, ...visible } = data;
  if (isObject(visible.object)) visible.object = hideBlindCopies(visible.object);
  return visible;
}

export function isPublic(data: Record<string, unknown>): boolean {
  const inner = isObject(data.object) ? data.object : {};
  return ["to", "cc", "audience"].some(
    (key) =>
      idsOf(data[key]).some((id) => PUBLIC.has(id)) ||
      idsOf(inner[key]).some((id) => PUBLIC.has(id)),
  );
}

export async function mayRead(
  services: Services,
  data: Record<string, unknown>,
  author: string,
  reader: string,
): Promise<boolean> {
  if (reader === author) return true;
  const audience = new Set(
    ["to", "cc", "bto", "bcc", "audience"].flatMap((key) => idsOf(data[key])),
  );
  if (audience.has(reader)) return true;
  if (!audience.has(`${author}/followers`)) return false;
  return isFollower(services.db, author, reader);
}
