import { findActor } from "../actors/index.ts";
import { idOf } from "../activitypub/parse.ts";
import type { InboxHandler } from "./inbox-handlers.ts";
import { acceptFollow } from "./accept-follow.ts";
import { describeActivity, isAboutFollow } from "../follows/follow-records.ts";
import { removeFollowByFollower, removeFollowerEverywhere } from "../follows/followers.store.ts";
import { answerFollowing, removeFollowingTarget } from "../follows/following.store.ts";

// Follows that arrive, one handler per activity type (listed in federation/index.ts): a Follow
// of one of our actors (accepted at once with autoFollow, otherwise left on the incoming stream
// for the operator), Undo Follow, Accept and Reject of our Follows, and a remote actor's Delete
// of itself. What our actors send is in methods/outgoing-follows.ts.

export const onFollowed: InboxHandler = async (services, { raw, sender, recipients }) => {
  const target = idOf(raw.object);
  if (!target || !recipients.includes(target)) return;
  const actor = await findActor(services.db, target);
  // Resolving the follower's inbox is a network round trip: not on the inbox's request path.
  if (actor?.autoFollow && !actor.deleted) void acceptFollow(services, target, raw, sender);
};

export const onUndone: InboxHandler = async (services, { raw, sender }) => {
  if (!isAboutFollow(raw)) return;
  const { inner, innerId } = describeActivity(raw);
  await removeFollowByFollower(services.db, sender, idOf(inner?.object) ?? "", innerId ?? "");
};

export const onDeleted: InboxHandler = async (services, { raw, sender }) => {
  // A remote actor deleted itself: it follows no one here and no one here follows it.
  if (describeActivity(raw).innerId !== sender) return;
  await removeFollowerEverywhere(services.db, sender);
  await removeFollowingTarget(services.db, sender);
};

export const onAccepted: InboxHandler = (services, arrival) => answer(services, arrival, true);

export const onRejected: InboxHandler = (services, arrival) => answer(services, arrival, false);

const answer = async (
  services: Parameters<InboxHandler>[0],
  { raw, sender }: Parameters<InboxHandler>[1],
  accepted: boolean,
) => {
  if (!isAboutFollow(raw)) return;
  const { inner, innerId } = describeActivity(raw);
  await answerFollowing(services.db, sender, idOf(inner?.actor) ?? "", innerId ?? "", accepted);
};
