import type { Services } from "../services.ts";
import {
  countWaitingByHost,
  holdHostDeliveries,
  listFailed,
  releaseHostDeliveries,
  retryHostDeliveries,
} from "./delivery-records.store.ts";
import {
  clearFailingSince,
  failuresByDay,
  findHost,
  listHostRows,
  setHostStopped,
  type HostRow,
} from "./hosts.store.ts";
import { announceDeliveries } from "./queue.ts";
import type { DeliveryAttempt, HostHealth, HostHold } from "./host-health.ts";
import { listHostAttempts, type AttemptRow } from "./attempts.store.ts";

export type { HostHealth };

// Delivery health per remote host (docs/api.md#delivery-health): what GET /fe/account/hosts shows,
// and the operator's stop, resume and "retry now". State: stopped while held; else failing when the
// latest attempt failed; else ok.

const FAILED_PER_HOST = 100;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function hostState(row: HostRow): HostHealth["state"] {
  if (row.stopped) return "stopped";
  const failure = row.last_failure_at ?? -1;
  return failure > (row.last_success_at ?? -1) ? "failing" : "ok";
}

export async function listHosts(services: Services, accountId: number): Promise<HostHealth[]> {
  const now = Date.now();
  const [rows, waiting, days, failed] = await Promise.all([
    listHostRows(services.db, accountId),
    countWaitingByHost(services.db, accountId),
    failuresByDay(services.db, accountId, now),
    listFailed(services.db, accountId, 5000),
  ]);
  return rows.map((row) => {
    const perDay = days.get(row.host) ?? Array<number>(7).fill(0);
    return {
      host: row.host,
      state: hostState(row),
      lastSuccessAt: iso(row.last_success_at),
      lastFailureAt: iso(row.last_failure_at),
      failures7d: perDay.reduce((sum, n) => sum + n, 0),
      queued: waiting.get(row.host) ?? 0,
      failed: failed
        .filter((d) => d.host === row.host)
        .slice(0, FAILED_PER_HOST)
        .map((d) => ({
          inbox: d.inbox,
          status: d.status,
          attempts: d.attempt,
          lastError: d.last_error,
          triggerId: d.trigger_id,
        })),
      failuresByDay: perDay,
      failingSince: iso(row.failing_since),
      lastError: row.last_error,
      hold: holdOf(row),
    };
  });
}

export function holdOf(row: HostRow): HostHold | null {
  if (row.held_since === null) return null;
  return {
    since: new Date(row.held_since).toISOString(),
    nextProbeAt: iso(row.next_probe_at),
    reason: row.hold_reason ?? "every attempt failed",
  };
}

/** The newest attempts of the account's deliveries to `host`, newest first. */
export async function readHostAttempts(
  services: Services,
  accountId: number,
  host: string,
  limit = 50,
): Promise<DeliveryAttempt[]> {
  return (await listHostAttempts(services.db, accountId, host, limit)).map(toAttempt);
}

export function toAttempt(row: AttemptRow): DeliveryAttempt {
  return {
    at: new Date(row.at).toISOString(),
    inbox: row.inbox,
    status: row.status,
    durationMs: row.durationMs,
    error: row.error,
    response: row.response,
  };
}

export type HostAction = "stop" | "resume" | "retry";

/** Applies the operator's action; false when the account never delivered to `host`. */
export async function actOnHost(
  services: Services,
  accountId: number,
  host: string,
  action: HostAction,
): Promise<boolean> {
  if (!(await findHost(services.db, accountId, host))) return false;
  await services.db.transaction(async (tx) => {
    if (action === "stop") {
      await setHostStopped(tx, accountId, host, true);
      await holdHostDeliveries(tx, accountId, host);
    } else if (action === "resume") {
      await setHostStopped(tx, accountId, host, false);
      await releaseHostDeliveries(tx, accountId, host);
    } else {
      await clearFailingSince(tx, accountId, host);
      await retryHostDeliveries(tx, accountId, host);
    }
  });
  if (action !== "stop") announceDeliveries(services);
  return true;
}
