import type { Actor, MethodInformation } from "./wire-types.ts";

export type PersistedUser = {
  token: string | null;
  actors: Actor[];
  methodInformations: MethodInformation[];
  currentActor: string | null;
};

/**
 * Checks what local storage held under "user-storage" before it becomes state: another build,
 * an extension or a hand edit may have left anything there, and the screens trust these types.
 * Returns null when it does not have the shape of the persisted user state.
 */
export function readPersistedUser(value: unknown): PersistedUser | null {
  if (!isRecord(value)) return null;
  const { token, actors, methodInformations, currentActor } = value;
  if (!isNullableString(token) || !isNullableString(currentActor)) return null;
  if (!Array.isArray(actors) || !actors.every(isActor)) return null;
  if (!Array.isArray(methodInformations) || !methodInformations.every(isMethodInformation)) {
    return null;
  }
  return { token, actors, methodInformations, currentActor };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === "string";
}

function isActor(value: unknown): value is Actor {
  return isRecord(value) && typeof value.id === "string" && typeof value.name === "string";
}

function isMethodInformation(value: unknown): value is MethodInformation {
  return isRecord(value) && typeof value.routing_key === "string";
}
