// One set of words for a delivery's fate, everywhere in the console (docs/delivery-fates.md):
// Perform's Result, an outgoing message's summary line, Deliveries and a host's page. The server's
// fields keep their values (`refused`, `failing`, …); only what the console says is one language.

import type { HostHealth } from "./host-health.ts";

export type Fate =
  "queued" | "sending" | "delivered" | "retrying" | "held" | "stopped" | "failed" | "not sent";

type Delivery = { inbox: string; state: string; attempts?: number; lastError: string | null };

/** A trigger record's delivery state in the console's words ("refused" is "not sent"). */
export function fateOfDelivery(state: string): Fate {
  switch (state) {
    case "queued":
    case "delivered":
    case "retrying":
    case "stopped":
    case "failed":
      return state;
    case "refused":
      return "not sent";
    default:
      return "queued";
  }
}

/** "not sent: the name does not resolve", or the fate alone. */
export function describeDeliveryFate(delivery: Delivery): string {
  const fate = fateOfDelivery(delivery.state);
  if (fate !== "not sent") return fate;
  return delivery.lastError ? `not sent: ${shortReason(delivery.lastError)}` : "not sent";
}

/**
 * The inbox a delivery went to, or null when none was found: a target whose actor could not be
 * read is listed by the server with the target in `inbox` (never sent, no attempt).
 */
export function inboxOfDelivery(delivery: Delivery): string | null {
  if (delivery.state !== "refused" || (delivery.attempts ?? 0) > 0) return delivery.inbox;
  // A known-gone inbox is refused before sending too, and it is an inbox.
  if (delivery.lastError?.startsWith(`${delivery.inbox} answered 410`)) return delivery.inbox;
  return null;
}

/** The words at the end of a reason ("… ENOTFOUND (the name does not resolve)"), else it whole. */
export function shortReason(reason: string): string {
  const words = /\(([^()]+)\)\s*$/.exec(reason)?.[1];
  return words ?? reason;
}

/** A host's outbound state in the same words: what became of what was sent to it last. */
export function fateOfHost(host: Pick<HostHealth, "state" | "queued"> & { hold?: unknown }): Fate {
  if (host.state === "stopped") return "stopped";
  if (host.hold) return "held";
  if (host.state === "failing") return host.queued > 0 ? "retrying" : "failed";
  return host.queued > 0 ? "queued" : "delivered";
}

/** MUI colours of the fates, for chips. */
export const FATE_COLORS: Record<Fate, "success" | "error" | "warning" | "info" | "default"> = {
  queued: "default",
  sending: "info",
  delivered: "success",
  retrying: "warning",
  held: "warning",
  stopped: "warning",
  failed: "error",
  "not sent": "error",
};
