// Stream events as Cattle Drive messages: incoming and outgoing on
// `receive.{account}.{stream}.{ActivityType}` (and `combined.{account}` over AMQP), errors on
// `error.{account}`. Each carries a
// correlation id (its trigger's when it has one): over MQTT, a message without CorrelationData
// ends almabtrieb's receive loop.

import { randomUUID } from "node:crypto";
import type { Db } from "../db/db.ts";
import { withHistoryId } from "../events/combined.ts";
import type { StoredEvent } from "../events/event-log.ts";
import type { StreamName } from "../events/streams.ts";
import { findCorrelationIds } from "../triggers/index.ts";
import type { Correlations } from "./correlations.ts";
import { combinedKey, errorKey, eventKey, type DriveMessage } from "./protocol.ts";

/**
 * Before eventMessage over AMQP: the correlation ids of these events' triggers that this process
 * does not hold (another process accepted them, or it was restarted), read from the triggers
 * table. A trigger that came with none (POST /fe) gets one new id for all its events.
 */
export async function learnCorrelations(
  db: Db,
  correlations: Correlations,
  rows: StoredEvent[],
): Promise<void> {
  const unknown = new Set<string>();
  for (const row of rows) {
    if (!row.data.includes('"trigger_id"')) continue;
    const id = triggerIdOf(row.data);
    if (id !== null && !correlations.knows(id)) unknown.add(id);
  }
  if (unknown.size === 0) return;
  const found = await findCorrelationIds(db, [...unknown]);
  for (const id of unknown) correlations.remember(id, found.get(id) ?? randomUUID());
}

function triggerIdOf(json: string): string | null {
  try {
    const id = (JSON.parse(json) as { trigger_id?: unknown }).trigger_id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}

export function eventMessage(
  account: string,
  stream: StreamName,
  json: string,
  correlations: Correlations,
): DriveMessage {
  let event: { trigger_id?: unknown; data?: { raw?: { type?: unknown } } } = {};
  try {
    event = JSON.parse(json) as typeof event;
  } catch {
    // Stored events are JSON; a broken one still goes out, under a generic type.
  }
  const key =
    stream === "error" ? errorKey(account) : eventKey(account, stream, event?.data?.raw?.type);
  return { key, payload: json, correlationId: correlations.forTrigger(event?.trigger_id) };
}

/**
 * The event on `combined.{account}`, as cattle_grid publishes it once its history stored it:
 * the same body with its history_id, and the correlation id of its `receive.…` message.
 */
export function combinedMessage(
  account: string,
  stream: "incoming" | "outgoing",
  row: StoredEvent,
  correlationId: string,
): DriveMessage {
  return { key: combinedKey(account), payload: withHistoryId(row, stream), correlationId };
}
