// `actor_info` on incoming and outgoing events (docs/server-guide.md#streams): the activity's actor in
// words, from what the server already holds. Our own actors from the database; remote ones from
// the actor document their key was fetched from to verify the signature (key-cache.ts keeps its
// preferredUsername and name); nothing is fetched for it.

import { findActor, listIdentifiers } from "../actors/index.ts";
import type { Services } from "../services.ts";
import type { ActorInfo } from "./actor-info-shape.ts";
import { knownActorProfile } from "./verify.ts";

export type { ActorInfo };

/** Our actor's handle (its acct identifier) and public name, or null when it is not ours. */
export async function localActorInfo(services: Services, id: string): Promise<ActorInfo | null> {
  const actor = await findActor(services.db, id);
  if (!actor) return null;
  const acct = (await listIdentifiers(services.db, id)).find((i) =>
    i.identifier.startsWith("acct:"),
  );
  return {
    id,
    handle: acct ? `@${acct.identifier.slice("acct:".length)}` : null,
    name: actor.profile.name ?? null, // the public name, as a remote server would read it
  };
}

/** What the key cache learnt of a remote actor; handle and name null when it learnt nothing. */
export function remoteActorInfo(services: Services, id: string): ActorInfo {
  const profile = knownActorProfile(services, id);
  let host: string | null = null;
  try {
    host = new URL(id).host;
  } catch {
    // an id that is no URL has no host to name
  }
  const user = profile?.preferredUsername;
  return {
    id,
    handle: user && host ? `@${user}@${host}` : null,
    name: profile?.name ?? null,
  };
}

/**
 * Ours from the database, else what verifying its signature told us. Only an id on one of our
 * origins costs a query: the inbox's remote senders are answered from memory.
 */
export async function actorInfoOf(services: Services, id: string): Promise<ActorInfo> {
  const ours = services.config.baseUrls.some((base) => id.startsWith(`${base}/`));
  return (ours && (await localActorInfo(services, id))) || remoteActorInfo(services, id);
}
