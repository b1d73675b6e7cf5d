// The console's view of a trigger record, docs/server-guide.md#triggers: what
// `GET /fe/actor/triggers/{id}` answers. Corral's addition to cattle_grid's API; a real
// cattle_grid has no such route and sends no Corral-Trigger-Id header.

import { fateOfDelivery } from "./delivery-fate.ts";
import type { DeliveryAttempt } from "./wire-types.ts";

/** The response header of an accepted `POST /fe/actor/trigger/{method}`. */
export const TRIGGER_ID_HEADER = "Corral-Trigger-Id";

export const TRIGGER_STATES = ["queued", "running", "done", "failed"] as const;
export type TriggerState = (typeof TRIGGER_STATES)[number];

export const DELIVERY_STATES = [
  "queued",
  "delivered",
  "retrying",
  "failed",
  "refused",
  "stopped",
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export type TriggerDelivery = {
  inbox: string;
  state: DeliveryState;
  status: number | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  /** Each attempt, oldest first (Corral's `attemptLog`); absent when the server does not list them. */
  attemptLog?: DeliveryAttempt[];
};

/** An event the trigger caused: its stream and its event id there. */
export type TriggerEventRef = { stream: "outgoing" | "error"; id: number };

export type TriggerRecord = {
  id: string;
  method: string;
  actor: string;
  receivedAt: string;
  state: TriggerState;
  error: string | null;
  deliveries: TriggerDelivery[];
  events: TriggerEventRef[];
  /** The call's body without `actor`; null from a server that does not say (older Corral). */
  data?: Record<string, unknown> | null;
};

/** `POST /fe/actor/triggers/{id}/redeliver`: all failed deliveries, or the one named. */
export type RedeliverRequest = { inbox?: string };

// Nothing changes a delivery in these states without the operator (Redeliver, Resume).
const SETTLED_DELIVERIES: readonly DeliveryState[] = ["delivered", "failed", "refused", "stopped"];

/** Whether polling can stop: the trigger ran and none of its deliveries is still under way. */
export function isTriggerSettled(record: TriggerRecord): boolean {
  if (record.state === "queued" || record.state === "running") return false;
  return record.deliveries.every((delivery) => SETTLED_DELIVERIES.includes(delivery.state));
}

/** Whether "Redeliver" makes sense for a delivery. */
export function canRedeliver(delivery: TriggerDelivery): boolean {
  return delivery.state === "failed" || delivery.state === "retrying";
}

/**
 * Checks an answer before the page trusts it: a proxy or an older server may send anything.
 * Returns null when it is not a trigger record.
 */
export function readTriggerRecord(value: unknown): TriggerRecord | null {
  if (!isRecord(value)) return null;
  const { id, method, actor, receivedAt, state, deliveries, events } = value;
  if (typeof id !== "string" || typeof method !== "string" || typeof actor !== "string") {
    return null;
  }
  if (typeof receivedAt !== "string" || !isOneOf(state, TRIGGER_STATES)) return null;
  const error = value.error ?? null;
  if (!isNullableString(error)) return null;
  if (!Array.isArray(deliveries) || !Array.isArray(events) || !events.every(isEventRef)) {
    return null;
  }
  const read = deliveries.map(readDelivery);
  if (read.some((delivery) => delivery === null)) return null;
  return {
    id,
    method,
    actor,
    receivedAt,
    state,
    error,
    deliveries: read as TriggerDelivery[],
    events,
    data: isRecord(value.data) ? value.data : null,
  };
}

// The optional-looking fields may be left out by a server that has nothing to say yet.
function readDelivery(value: unknown): TriggerDelivery | null {
  if (!isRecord(value) || typeof value.inbox !== "string") return null;
  if (!isOneOf(value.state, DELIVERY_STATES) || typeof value.attempts !== "number") return null;
  const status = value.status ?? null;
  const lastError = value.lastError ?? null;
  const nextAttemptAt = value.nextAttemptAt ?? null;
  const deliveredAt = value.deliveredAt ?? null;
  if (status !== null && typeof status !== "number") return null;
  if (![lastError, nextAttemptAt, deliveredAt].every(isNullableString)) return null;
  const attemptLog = readAttemptLog(value.attemptLog);
  return {
    ...(attemptLog ? { attemptLog } : {}),
    inbox: value.inbox,
    state: value.state,
    status,
    attempts: value.attempts,
    lastError: lastError as string | null,
    nextAttemptAt: nextAttemptAt as string | null,
    deliveredAt: deliveredAt as string | null,
  };
}

/** `attemptLog`, each entry checked; null when absent or not a list of attempts. */
function readAttemptLog(value: unknown): DeliveryAttempt[] | null {
  if (!Array.isArray(value)) return null;
  const read: DeliveryAttempt[] = [];
  for (const entry of value) {
    if (!isRecord(entry) || typeof entry.at !== "string" || typeof entry.inbox !== "string") {
      return null;
    }
    const status = entry.status ?? null;
    const error = entry.error ?? null;
    const response = entry.response ?? null;
    if (status !== null && typeof status !== "number") return null;
    if (!isNullableString(error) || !isNullableString(response)) return null;
    const durationMs = typeof entry.durationMs === "number" ? entry.durationMs : 0;
    read.push({ at: entry.at, inbox: entry.inbox, status, durationMs, error, response });
  }
  return read;
}

function isEventRef(value: unknown): value is TriggerEventRef {
  return (
    isRecord(value) &&
    (value.stream === "outgoing" || value.stream === "error") &&
    typeof value.id === "number"
  );
}

function isOneOf<T extends string>(value: unknown, options: readonly T[]): value is T {
  return typeof value === "string" && (options as readonly string[]).includes(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === "string";
}

/** One line for a record: "done: 2 delivered, 1 retrying" (state, then deliveries by state). */
export function summarizeTrigger(record: TriggerRecord): string {
  const counts = DELIVERY_STATES.map((state) => ({
    state,
    count: record.deliveries.filter((delivery) => delivery.state === state).length,
  })).filter(({ count }) => count > 0);
  if (counts.length === 0) return record.state;
  // Counted in the console's words for a fate (docs/delivery-fates.md): "refused" is "not sent".
  const counted = counts.map(({ state, count }) => `${count} ${fateOfDelivery(state)}`);
  return `${record.state}: ${counted.join(", ")}`;
}
