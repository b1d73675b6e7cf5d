import type { StreamName } from "./streams.ts";
import { findActorAccountId } from "../actors/index.ts";
import type { Services } from "../services.ts";

export { createMemoryBus, type BusMessage, type EventBus } from "../db/bus.ts";
export { streamNames, type StreamName } from "./streams.ts";
export { reportError, type ErrorEvent } from "./report-error.ts";
export { createEventLog, SentBodies, type EventLog, type StoredEvent } from "./event-log.ts";

/**
 * Appends an event to the stream of the account that owns the local actor `actorId`.
 * Returns the seq, or null when no account owns that actor (remote, deleted or unknown).
 */
export async function appendEventForActor(
  services: Services,
  actorId: string,
  stream: StreamName,
  data: object,
): Promise<number | null> {
  const accountId = await findActorAccountId(services.db, actorId);
  if (accountId == null) return null;
  return services.events.append(accountId, stream, data);
}
