import { mintObjectId, storeObject } from "../objects/objects.ts";
import { sendAsActor } from "../delivery/send-as-actor.ts";
import type { Services } from "../services.ts";
import type { MethodInput } from "./index.ts";
import { requireActor } from "./inputs.ts";

// delete_actor {actor}: the Delete is queued to the followers first (the queue keeps the key and
// the account to report to), then the actor is marked deleted and detached from its account, so
// the actor route answers a Tombstone with 410 from now on.

export async function deleteActor(services: Services, input: MethodInput): Promise<void> {
  const actor = await requireActor(services, input);
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
  });
  const now = Date.now();
  await services.db.run(
    `UPDATE actors SET deleted_at = ?, account_id = NULL, updated_at = ? WHERE id = ?`,
    [now, now, actor.id],
  );
}
