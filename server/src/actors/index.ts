export {
  generateActorKeyColumns,
  loadActorKeys,
  type ActorKeys,
  type CryptoKeyPair,
} from "./actor-keys.ts";
export {
  acctUri,
  createActor,
  findActor,
  findActorIdByIdentifier,
  listActors,
  listIdentifiers,
  type ActorRow,
  type CreateActorResult,
  type IdentifierRow,
} from "./actors.store.ts";
export type { ActorProfile, ImageRef, PropertyValueJson, UrlJson } from "./profile.ts";
export { actorDocument, actorUris, serializeActor, type ActorObject } from "./serialize-actor.ts";
