import { findActorAccounts } from "../actors/index.ts";
import type { Db } from "../db/db.ts";
import { listLiveFollowersOf } from "../follows/following.store.ts";
import type { Services } from "../services.ts";
import { idOf, idsOf, isObject } from "../activitypub/parse.ts";
import { grouped } from "../db/grouped.ts";

// Which of our actors an activity arriving at the shared inbox is for. Addressed means: named in
// to/cc/bto/bcc/audience, named as the object (a Follow of our actor) or as the embedded object's
// actor or object (Accept of our Follow, Undo of a Follow of us), our followers collection named
// (addressed to the actor), or the sender's followers / Public named while we follow the sender.

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);
const FOLLOWERS_SUFFIX = "/followers";

/** One of our actors an activity is for, and the account whose incoming stream gets it. */
export interface Recipient {
  id: string;
  /** Null when no account holds the actor (it was deleted): nothing goes on a stream. */
  accountId: number | null;
}

type Found = Map<string, { accountId: number | null; deleted: boolean }>;

// The actors asked about in one turn of the event loop are looked up together: one statement
// for all the activities being received at once instead of one or two each.
const lookups = new WeakMap<Db, (ids: string[]) => Promise<Found>>();

function lookUp(db: Db, ids: string[]): Promise<Found> {
  if (ids.length === 0) return Promise.resolve(new Map());
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = grouped(async (lists: string[][]) => {
      const found: Found = new Map();
      for (const row of await findActorAccounts(db, [...new Set(lists.flat())]))
        found.set(row.id, row);
      return lists.map(() => found);
    });
    lookups.set(db, lookup);
  }
  return lookup(ids);
}

/** One of our actors by id, live or deleted, as a recipient; undefined when not ours. */
export async function findRecipient(db: Db, id: string): Promise<Recipient | undefined> {
  const found = (await lookUp(db, [id])).get(id);
  return found && { id, accountId: found.accountId };
}

export async function findAddressedActors(
  services: Services,
  raw: Record<string, unknown>,
  sender: string,
): Promise<Recipient[]> {
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
  if (toFollowersOfSender) ids.push(...(await listLiveFollowersOf(services.db, sender)));
  const found = await lookUp(services.db, ids);
  const recipients = new Map<string, Recipient>();
  for (const id of ids) {
    const actor = found.get(id);
    // Our own activity echoed back to us is not news.
    if (actor && !actor.deleted && id !== sender)
      recipients.set(id, { id, accountId: actor.accountId });
  }
  return [...recipients.values()];
}
