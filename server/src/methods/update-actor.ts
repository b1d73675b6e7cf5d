import {
  actorDocument,
  updateActorRow,
  type ActorProfile,
  type ActorRow,
} from "../actors/index.ts";
import { UniqueViolation } from "../db/db.ts";
import { mintObjectId, storeObject } from "../objects/objects.ts";
import { sendAsActor } from "./send-as-actor.ts";
import type { Services } from "../services.ts";
import type { MethodCall } from "./method-call.ts";
import { MethodError } from "./method-error.ts";
import { applyIdentifierAction } from "./identifier-actions.ts";

// update_actor {actor, profile?, autoFollow?, actions?}: everything lands in one transaction;
// when the public document changed, followers get an Update.

type Action = Record<string, unknown> & { action?: unknown };

type Params = { profile?: Record<string, unknown>; autoFollow?: boolean; actions?: unknown[] };

export async function updateActor(services: Services, input: MethodCall<Params>): Promise<void> {
  const { actor } = input;
  const { profile, autoFollow, actions } = input.params;

  const before = JSON.stringify(await actorDocument(services.db, actor.id));
  const next: ActorProfile = structuredClone({
    ...actor.profile,
    ...(profile as ActorProfile | undefined),
  });
  let name = actor.name;
  await services.db
    .transaction(async (tx) => {
      for (const action of (actions ?? []) as Action[]) {
        if (action?.action === "rename") name = requireString(action, "name");
        else if (!applyProfileAction(next, action))
          await applyIdentifierAction(tx, services, actor, action);
      }
      await updateActorRow(tx, actor.id, {
        name,
        profile: next,
        autoFollow: autoFollow ?? actor.autoFollow,
      });
    })
    .catch((error) => {
      if (error instanceof UniqueViolation)
        throw new MethodError(`${input.method}: Duplicate identifier`);
      throw error;
    });
  const after = await actorDocument(services.db, actor.id);
  if (!after || JSON.stringify(after) === before) return;
  await sendUpdate(services, input, actor, after);
}

async function sendUpdate(
  services: Services,
  input: MethodCall<Params>,
  actor: ActorRow,
  document: Record<string, unknown>,
) {
  const update = {
    "@context": document["@context"],
    id: mintObjectId(actor.id),
    type: "Update",
    actor: actor.id,
    to: ["https://www.w3.org/ns/activitystreams#Public"],
    cc: [`${actor.id}/followers`],
    object: document,
  };
  await storeObject(services, actor.id, update);
  await sendAsActor(services, {
    accountId: input.accountId,
    actorId: actor.id,
    data: update,
    routingKey: input.method,
    original: input.body,
    trigger: input.trigger,
  });
}

/** Applies a profile-editing action; false when the action is not one of these. */
function applyProfileAction(profile: ActorProfile, action: Action): boolean {
  switch (action?.action) {
    case "update_property_value": {
      const key = requireString(action, "key");
      const value = requireString(action, "value");
      const list = (profile.attachment ?? []).filter((p) => p.name !== key);
      const index = (profile.attachment ?? []).findIndex((p) => p.name === key);
      list.splice(index < 0 ? list.length : index, 0, { type: "PropertyValue", name: key, value });
      profile.attachment = list;
      return true;
    }
    case "remove_property_value": {
      const key = requireString(action, "key");
      profile.attachment = (profile.attachment ?? []).filter((p) => p.name !== key);
      return true;
    }
    case "add_url": {
      const href = requireString(action, "url");
      const mediaType = typeof action.media_type === "string" ? action.media_type : null;
      const rel = typeof action.rel === "string" ? action.rel : null;
      profile.url = [
        ...(profile.url ?? []).filter((u) => (typeof u === "string" ? u : u.href) !== href),
        { href, mediaType, rel },
      ];
      return true;
    }
    case "remove_url": {
      const href = requireString(action, "url");
      profile.url = (profile.url ?? []).filter(
        (u) => (typeof u === "string" ? u : u.href) !== href,
      );
      return true;
    }
    default:
      return false;
  }
}

/** A string field of an action; schemas.ts checked that it is one. */
function requireString(action: Action, key: string): string {
  return String(action[key]);
}
