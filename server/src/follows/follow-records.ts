import { idOf, isObject } from "../activitypub/parse.ts";

// How follow bookkeeping reads an activity: its type, and its object (an embedded Follow, or a
// bare id taken as one).

type Json = Record<string, unknown>;

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

/** Whether the activity's object is a Follow (or a bare id, taken as one). */
export function isAboutFollow(activity: Json): boolean {
  const { inner } = describeActivity(activity);
  return inner === undefined || innerType(inner) === "Follow";
}
