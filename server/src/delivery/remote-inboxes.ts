import { actorUris, findActor } from "../actors/index.ts";
import type { Services } from "../services.ts";
import { isOurs } from "../activitypub/origins.ts";
import { loadSigner } from "../activitypub/local-keys.ts";
import { outgoingOf } from "../activitypub/outgoing.ts";
import { idOf, isObject } from "../activitypub/parse.ts";
import { signedGet } from "../activitypub/signing.ts";
import { singleFlight } from "./single-flight.ts";

// Where to deliver to an actor: its inbox and shared inbox, from its document fetched signed
// as the sending actor (authorized fetch), cached for an hour per process. Concurrent sends that
// need the same actor share one fetch (per signing actor: another may be refused differently).

export interface Inboxes {
  inbox: string;
  sharedInbox: string | null;
}

export type InboxResult =
  ({ ok: true } & Inboxes) | { ok: false; reason: string; refused?: boolean };

const TTL_MS = 3600_000;
const cache = new Map<string, { expires: number; inboxes: Inboxes }>();
const fetching = singleFlight<string, InboxResult>();

export async function resolveInboxes(
  services: Services,
  asActorId: string,
  targetId: string,
): Promise<InboxResult> {
  if (isOurs(services, targetId)) {
    const local = await findActor(services.db, targetId);
    if (!local || local.deleted)
      return { ok: false, reason: `${targetId} is not a live actor here`, refused: true };
    const uris = actorUris(local.id);
    return { ok: true, inbox: uris.inbox.href, sharedInbox: uris.sharedInbox.href };
  }
  const cached = cache.get(targetId);
  if (cached && cached.expires > Date.now()) return { ok: true, ...cached.inboxes };
  return fetching(`${asActorId} ${targetId}`, () => fetchInboxes(services, asActorId, targetId));
}

async function fetchInboxes(
  services: Services,
  asActorId: string,
  targetId: string,
): Promise<InboxResult> {
  const signer = await loadSigner(services.db, asActorId);
  const fetched = await signedGet(targetId, signer, {
    outgoing: outgoingOf(services),
    timeoutMs: 10_000,
  });
  if (!fetched.ok) return { ok: false, reason: fetched.reason };
  const document = fetched.document;
  const inbox = isObject(document) ? idOf(document.inbox) : undefined;
  if (!inbox)
    return { ok: false, reason: `${targetId} has no inbox (not an actor?)`, refused: true };
  const endpoints =
    isObject(document) && isObject(document.endpoints) ? document.endpoints : undefined;
  const inboxes = { inbox, sharedInbox: idOf(endpoints?.sharedInbox) ?? null };
  cache.set(targetId, { expires: Date.now() + TTL_MS, inboxes });
  return { ok: true, ...inboxes };
}
