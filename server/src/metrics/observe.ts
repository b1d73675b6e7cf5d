// The one-line hooks the rest of the server calls. Each counts into this server's registry when
// --metrics is on (nothing otherwise) and, for background jobs, writes one structured log line.

import { getLogger } from "@logtape/logtape";
import type { DeliveryRow } from "../db/deliveries.store.ts";
import type { EventLog } from "../events/event-log.ts";
import type { Services } from "../services.ts";
import { createMetrics, type Metrics } from "./registry.ts";

const enabled = new WeakMap<object, Metrics>();
const deliveryLog = getLogger(["corral", "delivery"]);
const triggerLog = getLogger(["corral", "trigger"]);

/** Turns metrics on for this server: a registry, and the event log's appends timed. */
export function enableMetrics(services: Services): Metrics {
  const metrics = createMetrics(services);
  enabled.set(services, metrics);
  services.events = instrumentEventLog(services.events, metrics);
  return metrics;
}

export function metricsOf(services: object): Metrics | undefined {
  return enabled.get(services);
}

function instrumentEventLog(events: EventLog, metrics: Metrics): EventLog {
  return {
    ...events,
    async append(accountId, stream, data, options) {
      const stop = metrics.eventAppend.startTimer({ stream });
      try {
        return await events.append(accountId, stream, data, options);
      } finally {
        stop();
      }
    },
    // Timed only when the event is stored (not when another copy held its claim).
    async appendTaking(accountId, stream, data, takes) {
      const stop = metrics.eventAppend.startTimer({ stream });
      const seq = await events.appendTaking(accountId, stream, data, takes);
      if (seq !== null) stop();
      return seq;
    },
    // Timed only when the event is stored (not when its work declined).
    async appendInTransaction(accountId, stream, data, work, after) {
      const stop = metrics.eventAppend.startTimer({ stream });
      const seq = await events.appendInTransaction(accountId, stream, data, work, after);
      if (seq !== null) stop();
      return seq;
    },
  };
}

// Inbox answers by status; the reasons a sender can cause, and nothing unbounded.
const refusals: Record<number, string> = {
  400: "malformed",
  401: "signature",
  403: "forbidden",
  404: "unknown_actor",
  410: "gone",
  413: "too_large",
  415: "media_type",
  429: "throttled",
};

/** Counts an inbox POST's answer: accepted (2xx) or refused with a reason. */
export async function observeInbox<T extends { status: number }>(
  services: object,
  answer: Promise<T>,
): Promise<T> {
  const inbox = metricsOf(services)?.inbox;
  try {
    const response = await answer;
    if (response.status < 300) inbox?.inc({ outcome: "accepted" });
    else inbox?.inc({ outcome: "refused", reason: refusals[response.status] ?? "other" });
    return response;
  } catch (error) {
    inbox?.inc({ outcome: "refused", reason: "error" });
    throw error;
  }
}

type DeliveryOutcome = { state: "delivered" | "failed" | "refused" | "retrying" | "stopped" };
// The queue's states, folded into the outcomes operators chart: a refused target failed too.
const DELIVERY_OUTCOMES = {
  delivered: "delivered",
  failed: "failed",
  refused: "failed",
  retrying: "retry",
  stopped: "stopped",
} as const;

/** Call as an attempt starts; the returned function counts and logs its outcome, passing it on. */
export function observeDelivery<T extends DeliveryOutcome>(
  services: object,
  row: Pick<DeliveryRow, "id" | "inbox" | "attempt">,
): (outcome: T) => T {
  const started = performance.now();
  return (outcome) => {
    const result = DELIVERY_OUTCOMES[outcome.state];
    metricsOf(services)?.deliveries.inc({ outcome: result });
    const properties = {
      id: row.id,
      inbox: row.inbox,
      outcome: result,
      attempt: row.attempt + 1,
      ms: Math.round(performance.now() - started),
    };
    const message = "delivery {id} to {inbox}: {outcome} (attempt {attempt}, {ms} ms)";
    // A failed attempt is a warning: what an operator running at --log-level warning wants to see.
    // Successes are many (thousands a second in a burst): a line each only at --log-level debug.
    if (result === "delivered") deliveryLog.debug(message, properties);
    else deliveryLog.warn(message, properties);
    return outcome;
  };
}

/** Times a method's run (an accepted trigger) and logs it once done. */
export async function observeTrigger<T>(
  services: object,
  input: { method: string; accountId: number; known: boolean },
  running: Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await running;
  } finally {
    const seconds = (performance.now() - started) / 1000;
    // Unknown method names are the caller's text: one label for all of them.
    const method = input.known ? input.method : "unknown";
    metricsOf(services)?.trigger.observe({ method }, seconds);
    triggerLog.info("method {method} for account {accountId} ran in {ms} ms", {
      method,
      accountId: input.accountId,
      ms: Math.round(seconds * 1000),
    });
  }
}
