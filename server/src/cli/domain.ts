// The server's domain functions the command line uses, imported here and nowhere else in cli/:
// when a module moves, this file is the one to re-point.

export { listAccounts } from "../accounts/index.ts";
export { openStore, type AccountCommand } from "../accounts/accounts.cli.ts";
export { listActors, listIdentifiers, type ActorRow } from "../actors/index.ts";
export type { Db } from "../db/db.ts";
export { createEventLog, createMemoryBus } from "../events/index.ts";
export { parseHandle } from "../activitypub/handles.ts";
export { createOutgoing } from "../activitypub/outgoing.ts";
export { createCorralFederation } from "../federation/index.ts";
export { lookupUri } from "../lookup/lookup.ts";
export type { Services } from "../services.ts";
