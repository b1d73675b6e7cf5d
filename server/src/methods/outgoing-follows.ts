import { idOf, idsOf } from "../activitypub/parse.ts";
import { resolveInboxes } from "../delivery/remote-inboxes.ts";
import type { Services } from "../services.ts";
import { describeActivity, isAboutFollow } from "../follows/follow-records.ts";
import { addFollower, removeFollower } from "../follows/followers.store.ts";
import { addFollowing, removeFollowingOf } from "../follows/following.store.ts";

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
    await addFollowing(services.db, actorId, target, idOf(data.id) ?? null);
  } else if ((type === "Accept" || type === "Reject") && isAboutFollow(data)) {
    const follower = idOf(inner?.actor) ?? idsOf(data.to)[0];
    if (!follower) return;
    if (type === "Reject") {
      await removeFollower(services.db, actorId, follower);
    } else {
      const inboxes = await resolveInboxes(services, actorId, follower);
      if (!inboxes.ok) throw new Error(`could not record follower ${follower}: ${inboxes.reason}`);
      await addFollower(
        services.db,
        actorId,
        follower,
        inboxes.inbox,
        inboxes.sharedInbox,
        innerId ?? null,
      );
    }
  } else if (type === "Undo" && isAboutFollow(data)) {
    await removeFollowingOf(services.db, actorId, idOf(inner?.object) ?? "", innerId ?? "");
  }
}
