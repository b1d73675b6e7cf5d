import { getLogger } from "@logtape/logtape";
import { randomUUID } from "node:crypto";
import type { Services } from "../services.ts";
import { insertTrigger } from "../db/triggers.store.ts";
import { TRIGGER_BUS_NAME } from "./worker.ts";

const log = getLogger(["corral", "trigger"]);

// Triggers: a call of POST /fe/actor/trigger/{method}, from its acceptance to everything it
// caused. Recorded before the 202 (acceptTrigger), run by the trigger worker, read back as a
// record (record.ts) that says per recipient what happened.

export { startTriggerWorker } from "./worker.ts";
export { findCorrelationIds } from "../db/triggers.store.ts";
export { readTriggerRecord, redeliver, type TriggerRecord } from "./record.ts";

/** Records an accepted trigger durably and wakes a worker; its id (unguessable, 122 random bits). */
export async function acceptTrigger(
  services: Services,
  input: {
    accountId: number;
    actorId: string;
    method: string;
    body: Record<string, unknown>;
    /** Chosen by the caller, who must know it before any of the trigger's events can appear. */
    id?: string;
    /** The Cattle Drive correlation id it came with: its events carry it (cattle-drive/). */
    correlationId?: string;
  },
): Promise<string> {
  const id = input.id ?? randomUUID();
  await insertTrigger(services.db, { ...input, id, body: JSON.stringify(input.body) });
  services.bus
    .publish({ accountId: input.accountId, stream: TRIGGER_BUS_NAME, seq: 0 })
    .catch((error: Error) =>
      log.error("trigger wake-up failed: {error}", { error: error.message }),
    );
  return id;
}
