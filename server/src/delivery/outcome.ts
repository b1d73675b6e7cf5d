import { getLogger } from "@logtape/logtape";
import type { Services } from "../services.ts";
import type { PostResult } from "../activitypub/signing.ts";
import { writeOutcomes, type DeliveryOutcome, type DeliveryRow } from "../db/deliveries.store.ts";
import { reportError } from "../events/report-error.ts";
import type { Db } from "../db/db.ts";
import {
  clearGoneInboxes,
  findHost,
  markInboxGone,
  noteHostFailure,
  noteHostSuccess,
  setHold,
  type HostRow,
} from "./hosts.store.ts";
import { deferHostDeliveries, releaseDeferred } from "./delivery-records.store.ts";
import { insertAttempts, type AttemptRow } from "./attempts.store.ts";

const log = getLogger(["corral", "delivery"]);

// What an attempt comes to, written as it ends (attempts that end together share one
// transaction; each stays claimed until it is written, so a crash re-sends only what was in
// flight): the delivery's state, its host's health and, for a failure, an error event that says
// whether and when it is tried again.

export const MAX_ATTEMPTS = 10;
const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 3600_000;
// Answers that no retry will change.
const PERMANENT_STATUSES = new Set([400, 404, 405, 410, 413, 414, 415, 422]);
/** A host failing this long on end is tried at most once per BREAKER_GAP_MS (a circuit breaker). */
export const BREAKER_AFTER_MS = 7 * 86_400_000;
export const BREAKER_GAP_MS = 3600_000;
/**
 * Holding a failing host on its own (docs/server-guide.md#delivery): when every attempt over at least
 * HOLD_AFTER_MS and at least HOLD_AFTER_ATTEMPTS attempts failed, one delivery probes it at its
 * next backoff and the others wait HOLD_GAP_MS behind the probe; the first success releases them.
 */
export const HOLD_AFTER_MS = 10 * 60_000;
export const HOLD_AFTER_ATTEMPTS = 5;
export const HOLD_GAP_MS = 60_000;

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

/** One attempt as it ended, waiting for its outcome to be written. */
export interface EndedAttempt {
  row: DeliveryRow;
  result: PostResult;
  /** When the attempt began, and how long it took (both recorded as its attempt row). */
  at?: number;
  durationMs?: number;
}

/**
 * What attempts came to, written together in one transaction (the queue groups the attempts
 * that end while the previous group is written): each delivery's state, its host's health and,
 * for a failure, an error event that says whether and when it is tried again. A delivery stays
 * claimed until its outcome is written, so a crash re-sends only what was in flight.
 */
export async function recordAttempts(
  services: Services,
  attempts: EndedAttempt[],
): Promise<DeliveryOutcome[]> {
  const now = Date.now();
  const outcomes = await services.db.transaction(async (tx): Promise<DeliveryOutcome[]> => {
    // Hosts already noted as answering in this group, until one of them fails again.
    const answering = new Set<string>();
    const decided: DeliveryOutcome[] = [];
    for (const { row, result } of attempts) {
      const accountId = row.account_id;
      const key = `${accountId} ${row.host}`;
      const attempt = row.attempt + 1;
      if (result.ok) {
        if (accountId != null && !answering.has(key)) {
          answering.add(key);
          // A host back after the breaker held it: what waited for it goes now, not an hour later.
          const before = await findHost(tx, accountId, row.host);
          await noteHostSuccess(tx, accountId, row.host, now);
          // Held (or behind the breaker): what waited goes now, each once.
          if (before && (breakerUntil(before, now) !== null || before.held_since !== null))
            await releaseDeferred(tx, accountId, row.host, now);
          // A success on the host: its inboxes that answered 410 may be tried again.
          if (before?.failing_since != null) await clearGoneInboxes(tx, accountId, row.host);
        }
        decided.push({ id: row.id, state: "delivered", status: result.status, attempt });
        continue;
      }
      answering.delete(key);
      const host =
        accountId != null
          ? await noteHostFailure(tx, accountId, row.host, now, result.reason)
          : null;
      const final =
        (result.status !== undefined && PERMANENT_STATUSES.has(result.status)) ||
        attempt >= MAX_ATTEMPTS;
      const breaker = host && breakerUntil(host, now);
      // A Retry-After from the host is the earliest next attempt.
      const nextAttemptAt = Math.max(
        now + computeBackoff(attempt),
        breaker ?? 0,
        result.retryAt ?? 0,
      );
      const held =
        host && accountId != null && !host.stopped
          ? await holdIfFailing(tx, accountId, host, now, nextAttemptAt, result.reason)
          : false;
      if (result.status === 410 && accountId != null)
        await markInboxGone(tx, accountId, row.host, row.inbox, now);
      decided.push({
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
      });
      // This delivery is the host's one probe per hour; the others wait behind it.
      if (breaker && accountId != null)
        await deferHostDeliveries(tx, accountId, row.host, breaker + BREAKER_GAP_MS, row.id);
      else if (held && accountId != null)
        await deferHostDeliveries(tx, accountId, row.host, nextAttemptAt + HOLD_GAP_MS, row.id);
    }
    await writeOutcomes(tx, decided);
    await insertAttempts(
      tx,
      attempts.map((ended) => attemptRow(ended, now)),
    );
    return decided;
  });
  for (const [i, outcome] of outcomes.entries()) {
    const row = attempts[i]!.row;
    if (outcome.state !== "delivered" && row.account_id != null)
      await report(services, row, outcome).catch((error: Error) =>
        log.error("reporting delivery {id}'s failure failed: {error}", {
          id: row.id,
          error: error.message,
        }),
      );
  }
  return outcomes;
}

/**
 * Holds the host when every attempt over HOLD_AFTER_MS and HOLD_AFTER_ATTEMPTS failed, or moves
 * a held host's next probe to this delivery's next attempt; true while the host is held.
 */
async function holdIfFailing(
  tx: Db,
  accountId: number,
  host: HostRow,
  now: number,
  nextProbeAt: number,
  error: string,
): Promise<boolean> {
  if (host.held_since !== null) {
    await setHold(tx, accountId, host.host, {
      since: host.held_since,
      nextProbeAt,
      reason: host.hold_reason ?? error,
    });
    return true;
  }
  const failingFor = now - (host.failing_since ?? now);
  if (host.run_failures < HOLD_AFTER_ATTEMPTS || failingFor < HOLD_AFTER_MS) return false;
  const minutes = Math.round(failingFor / 60_000);
  await setHold(tx, accountId, host.host, {
    since: now,
    nextProbeAt,
    reason: `all ${host.run_failures} attempts over ${minutes} min failed; the latest: ${error}`,
  });
  return true;
}

function attemptRow({ row, result, at, durationMs }: EndedAttempt, now: number): AttemptRow {
  return {
    deliveryId: row.id,
    accountId: row.account_id,
    host: row.host,
    inbox: row.inbox,
    at: at ?? now,
    status: result.status ?? null,
    durationMs: durationMs ?? 0,
    error: result.ok ? null : result.reason,
    response: result.ok ? null : (result.response ?? null),
  };
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
