import { filterLiveActorIds } from "../actors/index.ts";
import { listLiveFollowersOf } from "../follows/following.store.ts";
import type { Services } from "../services.ts";
import { idOf, idsOf, isObject } from "../activitypub/parse.ts";

// Which of our actors an activity arriving at the shared inbox is for. Addressed means: named in
// to/cc/bto/bcc/audience, named as the object (a Follow of our actor) or as the embedded object's
// actor or object (Accept of our Follow, Undo of a Follow of us), our followers collection named
// (addressed to the actor), or the sender's followers / Public named while we follow the sender.

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);
const FOLLOWERS_SUFFIX = "/followers";

export async function findAddressedActors(
  services: Services,
  raw: Record<string, unknown>,
  sender: string,
): Promise<string[]> {
  const named = new Set<string>();
  for (const key of ["to", "cc", "bto", "bcc", "audience"])
    for (const id of idsOf(raw[key])) named.add(id);
  const objectId = idOf(raw.object);
  if (objectId) named.add(objectId);
  if (isObject(raw.object)) {
    for (const id of idsOf(raw.object.actor)) named.add(id);
    for (const id of idsOf(raw.object.object)) named.add(id);
  }
  const candidates = new Set<string>();
  let toFollowersOfSender = false;
  for (const id of named) {
    candidates.add(id);
    if (id.endsWith(FOLLOWERS_SUFFIX)) candidates.add(id.slice(0, -FOLLOWERS_SUFFIX.length));
    // Whose followers collection it is we cannot always know; a public or followers-addressed
    // activity reaches those of our actors that follow the sender.
    if (PUBLIC.has(id) || id.endsWith(FOLLOWERS_SUFFIX)) toFollowersOfSender = true;
  }
  const ids = [...candidates].filter((id) => id.startsWith("http"));
  const found = new Set(await filterLiveActorIds(services.db, ids));
  if (toFollowersOfSender)
    for (const id of await listLiveFollowersOf(services.db, sender)) found.add(id);
  found.delete(sender); // our own activity echoed back to us is not news
  return [...found];
}
