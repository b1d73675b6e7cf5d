import { randomUUID } from "node:crypto";
import { findActor } from "../actors/index.ts";
import { reportError } from "../methods/report.ts";
import type { Services } from "../services.ts";
import { enqueueDeliveries } from "./delivery.ts";
import { storeObject } from "./objects.ts";
import { idOf, idsOf, isObject, parseActivityPub } from "./parse.ts";
import { resolveInboxes } from "./remote-actors.ts";

// Followers and following, kept from the activities that pass: Follow (accepted at once when
// the actor has autoFollow), Undo Follow, Accept and Reject, whether they arrive or our actors
// send them through send_message.

const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";

type Json = Record<string, unknown>;

/** Follow bookkeeping for an activity that arrived for `recipients` (our actors). */
export async function handleIncomingFollows(
  services: Services,
  raw: Json,
  sender: string,
  recipients: string[],
): Promise<void> {
  const { type, inner, innerId } = describe(raw);
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

/** Follow bookkeeping for an activity one of our actors sends (send_message, publish_activity). */
export async function recordOutgoingFollows(
  services: Services,
  actorId: string,
  data: Json,
): Promise<void> {
  const { type, inner, innerId } = describe(data);
  if (type === "Follow") {
    const target = idOf(data.object);
    if (!target) return;
    await services.db.run(
      `INSERT INTO following (actor_id, target_id, follow_id, accepted, created_at) VALUES (?, ?, ?, 0, ?)
       ON CONFLICT (actor_id, target_id) DO UPDATE SET follow_id = excluded.follow_id`,
      [actorId, target, idOf(data.id) ?? null, Date.now()],
    );
  } else if (
    (type === "Accept" || type === "Reject") &&
    (inner === undefined || innerType(inner) === "Follow")
  ) {
    const follower = idOf(inner?.actor) ?? idsOf(data.to)[0];
    if (!follower) return;
    if (type === "Reject") {
      await services.db.run(`DELETE FROM followers WHERE actor_id = ? AND follower_id = ?`, [
        actorId,
        follower,
      ]);
    } else {
      const inboxes = await resolveInboxes(services, actorId, follower);
      if (!inboxes.ok) throw new Error(`could not record follower ${follower}: ${inboxes.reason}`);
      await addFollower(
        services,
        actorId,
        follower,
        inboxes.inbox,
        inboxes.sharedInbox,
        innerId ?? null,
      );
    }
  } else if (type === "Undo" && (inner === undefined || innerType(inner) === "Follow")) {
    await services.db.run(
      `DELETE FROM following WHERE actor_id = ? AND (target_id = ? OR follow_id = ?)`,
      [actorId, idOf(inner?.object) ?? "", innerId ?? ""],
    );
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
      id: `${new URL(actorId).origin}/objects/${randomUUID()}`,
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

async function addFollower(
  services: Services,
  actorId: string,
  follower: string,
  inbox: string,
  sharedInbox: string | null,
  followId: string | null,
) {
  await services.db.run(
    `INSERT INTO followers (actor_id, follower_id, inbox, shared_inbox, follow_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (actor_id, follower_id) DO UPDATE SET inbox = excluded.inbox, shared_inbox = excluded.shared_inbox, follow_id = excluded.follow_id`,
    [actorId, follower, inbox, sharedInbox, followId, Date.now()],
  );
}

function describe(activity: Json) {
  const type = Array.isArray(activity.type) ? activity.type[0] : activity.type;
  const inner = isObject(activity.object) ? activity.object : undefined;
  return {
    type: typeof type === "string" ? type : undefined,
    inner,
    innerId: idOf(activity.object),
  };
}

function innerType(inner: Json | undefined): string | undefined {
  // A bare id (inner undefined) is taken as a Follow by the callers that accept that.
  return inner ? (typeof inner.type === "string" ? inner.type : undefined) : undefined;
}
