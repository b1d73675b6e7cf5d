import { findActor } from "../actors/index.ts";
import { reportError } from "../events/report-error.ts";
import type { Services } from "../services.ts";
import { enqueueDeliveries } from "../delivery/queue.ts";
import { addFollower, describeActivity, innerType } from "./follow-records.ts";
import { mintObjectId, storeObject } from "../objects/objects.ts";
import { idOf, parseActivityPub } from "../activitypub/parse.ts";
import { resolveInboxes } from "../delivery/remote-inboxes.ts";

// Follows that arrive: a Follow of one of our actors (accepted at once with autoFollow, otherwise
// left on the incoming stream for the operator), Undo Follow, Accept and Reject of our Follows,
// and a remote actor's Delete of itself. What our actors send is in follows-sent.ts.

const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";

type Json = Record<string, unknown>;

/** Follow bookkeeping for an activity that arrived for `recipients` (our actors). */
export async function handleIncomingFollows(
  services: Services,
  raw: Json,
  sender: string,
  recipients: string[],
): Promise<void> {
  const { type, inner, innerId } = describeActivity(raw);
  if (type === "Follow") {
    const target = idOf(raw.object);
    if (!target || !recipients.includes(target)) return;
    const actor = await findActor(services.db, target);
    // Resolving the follower's inbox is a network round trip: not on the inbox's request path.
    if (actor?.autoFollow && !actor.deleted) void acceptFollow(services, target, raw, sender);
  } else if (type === "Undo" && (inner === undefined || innerType(inner) === "Follow")) {
    await services.db.run(
      `DELETE FROM followers WHERE follower_id = ? AND (actor_id = ? OR follow_id = ?)`,
      [sender, idOf(inner?.object) ?? "", innerId ?? ""],
    );
  } else if (type === "Delete" && innerId === sender) {
    // A remote actor deleted itself: it follows no one here and no one here follows it.
    await services.db.run(`DELETE FROM followers WHERE follower_id = ?`, [sender]);
    await services.db.run(`DELETE FROM following WHERE target_id = ?`, [sender]);
  } else if (
    (type === "Accept" || type === "Reject") &&
    (inner === undefined || innerType(inner) === "Follow")
  ) {
    const ours = idOf(inner?.actor) ?? "";
    const where = `target_id = ? AND (actor_id = ? OR follow_id = ?)`;
    if (type === "Accept")
      await services.db.run(`UPDATE following SET accepted = 1 WHERE ${where}`, [
        sender,
        ours,
        innerId ?? "",
      ]);
    else
      await services.db.run(`DELETE FROM following WHERE ${where}`, [sender, ours, innerId ?? ""]);
  }
}

/** autoFollow: record the follower and send an Accept of its Follow. */
async function acceptFollow(
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
      services,
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
    await enqueueDeliveries(services, {
      actorId,
      accountId,
      inboxes: [inboxes.inbox],
      body,
      routingKey: "auto_follow",
      original: JSON.stringify(follow),
    });
    await services.events.append(accountId, "outgoing", {
      actor: actorId,
      event_type: "outgoing",
      data: { raw: accept, parsed: parseActivityPub(accept) },
      history_id: null,
    });
  } catch (error) {
    await reportError(services, accountId, "auto_follow", follow, [
      `could not accept the Follow from ${follower}`,
      (error as Error).message,
    ]);
  }
}
