// Stream events as Cattle Drive messages: incoming and outgoing on
// `receive.{account}.{stream}.{ActivityType}` (and `combined.{account}` over AMQP), errors on
// `error.{account}`. Each carries a
// correlation id (its trigger's when it has one): over MQTT, a message without CorrelationData
// ends almabtrieb's receive loop.

import { withHistoryId } from "../events/combined.ts";
import type { StoredEvent } from "../events/event-log.ts";
import type { StreamName } from "../events/streams.ts";
import type { Correlations } from "./correlations.ts";
import { combinedKey, errorKey, eventKey, type DriveMessage } from "./protocol.ts";

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
