import { mintObjectId, storeObject } from "../objects/objects.ts";
import { sendAsActor } from "./send-as-actor.ts";
import { markActorDeleted } from "../actors/index.ts";
import type { Services } from "../services.ts";
import type { MethodCall } from "./method-call.ts";

// delete_actor {actor}: the Delete is queued to the followers first (the queue keeps the key and
// the account to report to), then the actor is marked deleted and detached from its account, so
// the actor route answers a Tombstone with 410 from now on.

export async function deleteActor(services: Services, input: MethodCall<unknown>): Promise<void> {
  const actor = input.actor;
  const remove = {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: mintObjectId(actor.id),
    type: "Delete",
    actor: actor.id,
    to: ["https://www.w3.org/ns/activitystreams#Public"],
    cc: [`${actor.id}/followers`],
    object: actor.id,
  };
  await storeObject(services, actor.id, remove);
  await sendAsActor(services, {
    accountId: input.accountId,
    actorId: actor.id,
    data: remove,
    routingKey: input.method,
    original: input.body,
    trigger: input.trigger,
  });
  await markActorDeleted(services.db, actor.id);
}
