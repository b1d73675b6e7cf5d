export { loadActorKeys, type ActorKeys, type CryptoKeyPair } from "./actor-keys.ts";
export {
  acctUri,
  countLiveActors,
  createActor,
  ensureInstanceActorRow,
  instanceActorId,
  findActor,
  findActorAccounts,
  findActorAccountId,
  listActors,
  listActorsOffBaseUrls,
  markActorDeleted,
  updateActorRow,
  type ActorRow,
  type CreateActorResult,
} from "./actors.store.ts";
export {
  findActorIdByIdentifier,
  insertIdentifier,
  listIdentifiers,
  removeIdentifier,
  setPrimaryIdentifier,
  type IdentifierRow,
} from "./identifiers.store.ts";
export { generateActorKeyColumns, type ActorKeyColumns } from "./key-columns.ts";
export type { ActorProfile, ImageRef, PropertyValueJson, UrlJson } from "./profile.ts";
export { actorDocument, actorUris, serializeActor, type ActorObject } from "./serialize-actor.ts";
