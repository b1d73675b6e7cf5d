import { actorInfoOf } from "../activitypub/actor-info.ts";
import { normalizeData } from "../activitypub/muck-out.ts";
import { idOf } from "../activitypub/parse.ts";
import { findActor } from "../actors/index.ts";
import { announceDeliveries, queueDeliveries } from "../delivery/queue.ts";
import { resolveInboxes } from "../delivery/remote-inboxes.ts";
import { reportError } from "../events/report-error.ts";
import { mintObjectId, storeObject } from "../objects/objects.ts";
import type { Services } from "../services.ts";
import { addFollower } from "../follows/followers.store.ts";

const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";

type Json = Record<string, unknown>;

/** autoFollow: record the follower and send an Accept of its Follow. */
export async function acceptFollow(
  services: Services,
  actorId: string,
  follow: Json,
  follower: string,
): Promise<void> {
  const actor = await findActor(services.db, actorId);
  const accountId = actor?.accountId;
  if (!actor || accountId == null) return;
  try {
    const inboxes = await resolveInboxes(services, actorId, follower);
    if (!inboxes.ok) throw new Error(inboxes.reason);
    await addFollower(
      services.db,
      actorId,
      follower,
      inboxes.inbox,
      inboxes.sharedInbox,
      idOf(follow.id) ?? null,
    );
    const accept = {
      "@context": AS_CONTEXT,
      id: mintObjectId(actorId),
      type: "Accept",
      actor: actorId,
      to: [follower],
      object: follow,
    };
    await storeObject(services, actorId, accept);
    const body = JSON.stringify(accept);
    const event = {
      actor: actorId,
      event_type: "outgoing",
      data: { raw: accept, parsed: normalizeData(accept, actorId) },
      history_id: null,
      trigger_id: null,
      actor_info: await actorInfoOf(services, actorId),
    };
    // The Accept and its outgoing event: one transaction.
    await services.events.appendInTransaction(accountId, "outgoing", event, async (tx) => {
      await queueDeliveries(tx, {
        actorId,
        accountId,
        inboxes: [inboxes.inbox],
        body,
        routingKey: "auto_follow",
        original: JSON.stringify(follow),
      });
      return true;
    });
    announceDeliveries(services);
  } catch (error) {
    await reportError(services, accountId, "auto_follow", follow, [
      `could not accept the Follow from ${follower}`,
      (error as Error).message,
    ]);
  }
}
