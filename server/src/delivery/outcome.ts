import type { Services } from "../services.ts";
import type { PostResult } from "../activitypub/signing.ts";
import { writeOutcome, type DeliveryOutcome, type DeliveryRow } from "../db/deliveries.store.ts";
import { reportError } from "../events/report-error.ts";
import { findHost, noteHostFailure, noteHostSuccess, type HostRow } from "./hosts.store.ts";
import { deferHostDeliveries, releaseDeferred } from "./delivery-records.store.ts";

// What an attempt comes to, written as it ends (one transaction per delivery, so a crash
// re-sends only what was in flight): the delivery's state, its host's health and, for a
// failure, an error event that says whether and when it is tried again.

export const MAX_ATTEMPTS = 10;
const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 3600_000;
// Answers that no retry will change.
const PERMANENT_STATUSES = new Set([400, 404, 405, 410, 413, 414, 415, 422]);
/** A host failing this long on end is tried at most once per BREAKER_GAP_MS (a circuit breaker). */
export const BREAKER_AFTER_MS = 7 * 86_400_000;
export const BREAKER_GAP_MS = 3600_000;

/** 30 s, 1 min, 2 min, … capped at 6 h, with ±10 % jitter so retries of one outage spread out. */
export function computeBackoff(attempt: number): number {
  const delay = Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
  return Math.round(delay * (0.9 + Math.random() * 0.2));
}

/** When the circuit breaker lets the host be tried next, or null when it is not open. */
export function breakerUntil(host: HostRow, now: number): number | null {
  if (host.failing_since === null || now - host.failing_since < BREAKER_AFTER_MS) return null;
  return Math.max(now, (host.last_failure_at ?? 0) + BREAKER_GAP_MS);
}

export async function recordAttempt(
  services: Services,
  row: DeliveryRow,
  result: PostResult,
): Promise<DeliveryOutcome> {
  const attempt = row.attempt + 1;
  const now = Date.now();
  const outcome = await services.db.transaction(async (tx): Promise<DeliveryOutcome> => {
    const accountId = row.account_id;
    if (result.ok && accountId != null) {
      // A host back after the breaker held it: what waited for it goes now, not an hour later.
      const before = await findHost(tx, accountId, row.host);
      await noteHostSuccess(tx, accountId, row.host, now);
      if (before && breakerUntil(before, now) !== null)
        await releaseDeferred(tx, accountId, row.host, now);
    }
    const host =
      !result.ok && accountId != null ? await noteHostFailure(tx, accountId, row.host, now) : null;
    let decided: DeliveryOutcome;
    if (result.ok) decided = { id: row.id, state: "delivered", status: result.status, attempt };
    else {
      const final =
        (result.status !== undefined && PERMANENT_STATUSES.has(result.status)) ||
        attempt >= MAX_ATTEMPTS;
      const breaker = host && breakerUntil(host, now);
      const nextAttemptAt = Math.max(now + computeBackoff(attempt), breaker ?? 0);
      decided = {
        id: row.id,
        state: result.refused
          ? "refused"
          : final
            ? "failed"
            : host?.stopped
              ? "stopped"
              : "retrying",
        status: result.status ?? null,
        attempt,
        error: result.reason,
        nextAttemptAt,
      };
      // This delivery is the host's one probe per hour; the others wait behind it.
      if (breaker && row.account_id != null)
        await deferHostDeliveries(tx, row.account_id, row.host, breaker + BREAKER_GAP_MS, row.id);
    }
    await writeOutcome(tx, decided);
    return decided;
  });
  if (outcome.state !== "delivered" && row.account_id != null) await report(services, row, outcome);
  return outcome;
}

async function report(
  services: Services,
  row: DeliveryRow,
  outcome: Exclude<DeliveryOutcome, { state: "delivered" }>,
) {
  const retried = outcome.state === "retrying" || outcome.state === "stopped";
  const next = new Date(outcome.nextAttemptAt).toISOString();
  await reportError(
    services,
    row.account_id!,
    row.routing_key,
    row.original,
    [
      outcome.state === "refused"
        ? `delivery to ${row.inbox} refused before sending`
        : `delivery to ${row.inbox} failed (attempt ${outcome.attempt})`,
      outcome.error,
      outcome.state === "stopped"
        ? `held: delivery to ${row.host} is stopped`
        : retried
          ? `next attempt at ${next}`
          : "giving up",
    ],
    {
      inbox: row.inbox,
      status: outcome.status,
      attempt: outcome.attempt,
      ...(retried ? { nextAttemptAt: next } : { final: true }),
    },
    row.trigger_id,
  );
}
