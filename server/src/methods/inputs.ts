import { findActor, type ActorRow } from "../actors/index.ts";
import type { Services } from "../services.ts";
import type { MethodInput } from "./index.ts";
import { MethodError } from "./method-error.ts";

// Validation shared by the methods: the payload's actor must be a live actor of the account.

export async function requireActor(services: Services, input: MethodInput): Promise<ActorRow> {
  const actorId = input.body.actor;
  if (typeof actorId !== "string" || actorId === "")
    throw new MethodError(`${input.method}: "actor" must be the id of one of your actors`);
  const actor = await findActor(services.db, actorId);
  if (!actor || actor.accountId !== input.accountId)
    throw new MethodError(`${input.method}: ${actorId} is not one of your actors`);
  if (actor.deleted) throw new MethodError(`${input.method}: ${actorId} was deleted`);
  return actor;
}

export function requireData(input: MethodInput): Record<string, unknown> {
  const data = input.body.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new MethodError(`${input.method}: "data" must be a JSON object`);
  }
  return data as Record<string, unknown>;
}
