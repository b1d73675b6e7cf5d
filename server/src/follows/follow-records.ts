import type { Services } from "../services.ts";
import { idOf, isObject } from "../activitypub/parse.ts";

// The followers and following tables as follow bookkeeping uses them, and how an activity's
// object is read (an embedded Follow, or a bare id taken as one).

type Json = Record<string, unknown>;

export async function addFollower(
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

export function describeActivity(activity: Json) {
  const type = Array.isArray(activity.type) ? activity.type[0] : activity.type;
  const inner = isObject(activity.object) ? activity.object : undefined;
  return {
    type: typeof type === "string" ? type : undefined,
    inner,
    innerId: idOf(activity.object),
  };
}

export function innerType(inner: Json | undefined): string | undefined {
  // A bare id (inner undefined) is taken as a Follow by the callers that accept that.
  return inner ? (typeof inner.type === "string" ? inner.type : undefined) : undefined;
}
