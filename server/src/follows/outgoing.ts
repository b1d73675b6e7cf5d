import type { Services } from "../services.ts";
import { addFollower, describeActivity, innerType } from "./follow-records.ts";
import { idOf, idsOf } from "../activitypub/parse.ts";
import { resolveInboxes } from "../delivery/remote-inboxes.ts";

// Follows our actors send themselves (send_message, publish_activity): a Follow starts a pending
// following row; an Accept or Reject of a Follow adds or removes a follower; Undo Follow ends one.

type Json = Record<string, unknown>;

/** Follow bookkeeping for an activity one of our actors sends (send_message, publish_activity). */
export async function recordOutgoingFollows(
  services: Services,
  actorId: string,
  data: Json,
): Promise<void> {
  const { type, inner, innerId } = describeActivity(data);
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
