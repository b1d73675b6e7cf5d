import { hideBlindCopies, mintObjectId, storeObject } from "../objects/objects.ts";
import { sendAsActor } from "./send-as-actor.ts";
import { isObject } from "../activitypub/parse.ts";
import type { Services } from "../services.ts";
import type { MethodCall } from "./method-call.ts";

// publish_object and publish_activity: ids on the actor's origin, stored so they dereference
// (GET /objects/{uuid}), then sent like send_message.

const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";
const AUDIENCE_KEYS = ["to", "cc", "bto", "bcc", "audience"] as const;

/** Checked by schemas.ts: data has no id and a type (and, for an activity, actor as its actor). */
type Publish = MethodCall<{ data: Record<string, unknown> }>;

/** publish_object {actor, data}: data (without id) wrapped in a Create. */
export async function publishObject(services: Services, input: Publish): Promise<void> {
  const {
    actor,
    params: { data },
  } = input;
  const object = withId(data, mintObjectId(actor.id), actor.id);
  const create: Record<string, unknown> = {
    "@context": object["@context"] ?? AS_CONTEXT,
    id: mintObjectId(actor.id),
    type: "Create",
    actor: actor.id,
  };
  for (const key of AUDIENCE_KEYS) if (object[key] !== undefined) create[key] = object[key];
  create.object = hideBlindCopies(object);
  await storeObject(services, actor.id, object);
  await storeObject(services, actor.id, create);
  await sendAsActor(services, {
    accountId: input.accountId,
    actorId: actor.id,
    data: create,
    routingKey: input.method,
    original: input.body,
    trigger: input.trigger,
  });
}

/** publish_activity {actor, data}: data (without id; data.actor = actor, or absent) given an id. */
export async function publishActivity(services: Services, input: Publish): Promise<void> {
  const {
    actor,
    params: { data },
  } = input;
  const activity: Record<string, unknown> = {
    "@context": data["@context"] ?? AS_CONTEXT,
    id: mintObjectId(actor.id),
    ...data,
  };
  activity.actor ??= actor.id;
  // A Create of a new object: the object needs an id too, and must dereference.
  if (isObject(data.object) && data.object.id === undefined && data.type === "Create") {
    const object = withId(data.object, mintObjectId(actor.id), actor.id);
    await storeObject(services, actor.id, object);
    activity.object = hideBlindCopies(object);
  }
  await storeObject(services, actor.id, activity);
  await sendAsActor(services, {
    accountId: input.accountId,
    actorId: actor.id,
    data: activity,
    routingKey: input.method,
    original: input.body,
    trigger: input.trigger,
  });
}

function withId(
  data: Record<string, unknown>,
  id: string,
  actorId: string,
): Record<string, unknown> {
  const { "@context": context, ...rest } = data;
  const object: Record<string, unknown> =
    context === undefined ? { id, ...rest } : { "@context": context, id, ...rest };
  object.attributedTo ??= actorId;
  object.published ??= new Date().toISOString();
  return object;
}
