import type { Services } from "../services.ts";
import { listTriggerDeliveries, redeliverTrigger } from "../delivery/delivery-records.store.ts";
import { announceDeliveries } from "../delivery/queue.ts";
import { listDeliveryAttempts } from "../delivery/attempts.store.ts";
import { toAttempt } from "../delivery/hosts.ts";
import { findTrigger, listTriggerEvents } from "../db/triggers.store.ts";
import type { TriggerRecord } from "./trigger-record.ts";

export type { TriggerRecord };

// GET /fe/actor/triggers/{id}, as docs/api.md#get-feactortriggersid describes it: the trigger's
// state, one entry per recipient with what its delivery came to, and the events it caused.

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The account's trigger `id`, or null when it has none by that id. */
export async function readTriggerRecord(
  services: Services,
  accountId: number,
  id: string,
): Promise<TriggerRecord | null> {
  const trigger = await findTrigger(services.db, accountId, id);
  if (!trigger) return null;
  const deliveries = await listTriggerDeliveries(services.db, id);
  const attempts = await listDeliveryAttempts(
    services.db,
    deliveries.map((d) => d.id),
  );
  return {
    id,
    method: trigger.method,
    actor: trigger.actor_id,
    data: readCallData(trigger.body),
    receivedAt: new Date(trigger.received_at).toISOString(),
    state: trigger.state,
    error: trigger.error,
    deliveries: deliveries.map((d) => ({
      inbox: d.inbox,
      state: d.state,
      status: d.status,
      attempts: d.attempt,
      lastError: d.last_error,
      // Only a delivery that will be tried again has a next attempt.
      nextAttemptAt: d.state === "queued" || d.state === "retrying" ? iso(d.next_attempt_at) : null,
      deliveredAt: iso(d.delivered_at),
      attemptLog: (attempts.get(d.id) ?? []).map(toAttempt),
    })),
    events: await listTriggerEvents(services.db, id),
  };
}

/** The stored body without `actor` (the record names it on its own). */
function readCallData(body: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(body);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  const { actor: _actor, ...data } = parsed as Record<string, unknown>;
  return data;
}

/** Failed deliveries of the trigger (or the one to `inbox`) due again now; false: no such trigger. */
export async function redeliver(
  services: Services,
  accountId: number,
  id: string,
  inbox: string | null,
): Promise<boolean> {
  if (!(await findTrigger(services.db, accountId, id))) return false;
  await redeliverTrigger(services.db, id, inbox);
  announceDeliveries(services);
  return true;
}
