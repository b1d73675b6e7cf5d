import type { StreamName } from "../fe/wire.ts";
import type { Services } from "../services.ts";

export { createMemoryBus, type BusMessage, type EventBus } from "./bus.ts";
export { createEventLog, type EventLog, type StoredEvent } from "./event-log.ts";

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
  const row = await services.db.get<{ account_id: number | bigint | null }>(
    `SELECT account_id FROM actors WHERE id = ?`,
    [actorId],
  );
  if (row?.account_id == null) return null;
  return services.events.append(Number(row.account_id), stream, data);
}
