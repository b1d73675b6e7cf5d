import { getLogger } from "@logtape/logtape";
import type { Services } from "../services.ts";
import type { Db } from "../db/db.ts";
import {
  claimDue,
  insertDeliveries,
  renewLeases,
  type DeliveryRow,
  type NewDelivery,
} from "../db/deliveries.store.ts";
import { attemptDelivery, type Receive } from "./attempt.ts";
import { startClaimLoop } from "../db/claim-loop.ts";
import { ensureHost, findGoneInboxes, noteHostFailure, type HostRow } from "./hosts.store.ts";
import { insertBody } from "./delivery-bodies.store.ts";
import { digestOf } from "../activitypub/draft-signing.ts";
import {
  BREAKER_GAP_MS,
  breakerUntil,
  HOLD_GAP_MS,
  recordAttempts,
  type EndedAttempt,
} from "./outcome.ts";
import { grouped } from "../db/grouped.ts";
import { observeDelivery } from "../metrics/observe.ts";

const log = getLogger(["corral", "delivery"]);

// Our own durable delivery queue on the `deliveries` table (docs/adr/0001 and 0006): rows are
// claimed atomically with a lease (--claim-lease, 30 s by default) renewed while in flight, so
// several processes sharing PostgreSQL can work one queue and a dead one's claims pass on; each
// attempt's outcome is written as it ends. Rows are kept after they end: a trigger's record and
// host health read them.

export interface DeliveryJob {
  actorId: string;
  accountId: number;
  /** The trigger that caused it, or null (an automatic Accept, say). */
  triggerId?: string | null;
  inboxes: string[];
  /**
   * Targets refused before sending (no inbox found): kept as `refused` rows, never sent. With
   * `hostFailed`, their host could not be reached or answered an error: a failure of the host.
   */
  refused?: Array<{ target: string; reason: string; hostFailed?: boolean }>;
  /** The exact bytes to POST. */
  body: string;
  routingKey: string;
  /** The method's original body, for error events. */
  original: string;
}

export type { DeliveryRow };

export interface WorkerOptions {
  concurrency?: number;
  pollMs?: number;
  /** How an activity for an inbox on this server is received (given at wiring time: main.ts). */
  receive?: Receive;
}

const BUS_NAME = "deliveries";

/** Queues one POST per inbox inside the caller's transaction; call announceDeliveries after it commits. */
export async function queueDeliveries(tx: Db, job: DeliveryJob): Promise<void> {
  if (job.inboxes.length === 0 && !job.refused?.length) return;
  const now = Date.now();
  const rows: NewDelivery[] = [];
  // The body once for every recipient, its Digest made here once (docs/adr/0010); a trigger's
  // error events take its body from the trigger: not stored once per recipient either.
  const bodyId = await insertBody(tx, job.body, digestOf(job.body));
  const triggerId = job.triggerId ?? null;
  const base = { ...job, bodyId, triggerId, original: triggerId === null ? job.original : "" };
  const hosts = new Map<string, HostRow>();
  for (const inbox of job.inboxes) {
    const host = hostOf(inbox);
    if (!hosts.has(host)) hosts.set(host, await ensureHost(tx, job.accountId, host));
  }
  // Inboxes that answered 410 are not tried until their host answers again
  // (docs/server-guide.md#delivery); only failing hosts can have one, so a healthy send asks nothing
  // more.
  const failing = job.inboxes.filter((inbox) => hosts.get(hostOf(inbox))!.failing_since !== null);
  const gone = failing.length > 0 ? await findGoneInboxes(tx, job.accountId, failing) : null;
  for (const inbox of job.inboxes) {
    const host = hostOf(inbox);
    const known = hosts.get(host)!;
    const goneSince = gone?.get(inbox);
    if (goneSince !== undefined) {
      const since = new Date(goneSince).toISOString();
      const lastError = `${inbox} answered 410 Gone at ${since}: not tried until ${host} answers again`;
      rows.push({ ...base, inbox, host, state: "refused", nextAttemptAt: now, lastError });
      continue;
    }
    const state = known.stopped ? "stopped" : "queued";
    // Behind the breaker's hourly probe, or a held host's probe (outcome.ts), until it answers.
    const breaker = breakerUntil(known, now);
    const nextAttemptAt =
      breaker !== null
        ? breaker + BREAKER_GAP_MS
        : known.held_since !== null
          ? Math.max(now, known.next_probe_at ?? now) + HOLD_GAP_MS
          : now;
    rows.push({ ...base, inbox, host, state, nextAttemptAt });
  }
  for (const { target, reason, hostFailed } of job.refused ?? []) {
    const host = hostOf(target);
    // A host never reached is a host like any other on GET /fe/account/hosts: failing, and why.
    if (hostFailed && host !== "?") await noteHostFailure(tx, job.accountId, host, now, reason);
    rows.push({
      ...base,
      inbox: target,
      host,
      state: "refused",
      nextAttemptAt: now,
      lastError: reason,
    });
  }
  await insertDeliveries(tx, rows);
}

/** Wakes the delivery workers (every process's, on PostgreSQL). */
export function announceDeliveries(services: Services): void {
  services.bus
    .publish({ accountId: 0, stream: BUS_NAME, seq: 0 })
    .catch((error: Error) =>
      log.error("delivery queue: wake-up failed: {error}", { error: error.message }),
    );
}

/** Queues in a transaction of its own and wakes the workers. */
export async function enqueueDeliveries(services: Services, job: DeliveryJob): Promise<void> {
  if (job.inboxes.length === 0 && !job.refused?.length) return;
  await services.db.transaction((tx) => queueDeliveries(tx, job));
  announceDeliveries(services);
}

/** Starts delivering queued rows in the background until stop() (which lets attempts finish). */
export function startDeliveryWorker(
  services: Services,
  options: WorkerOptions = {},
): { stop(): Promise<void> } {
  // Attempts that end while a group of outcomes is being written go together in the next one.
  const record = grouped((attempts: EndedAttempt[]) => recordAttempts(services, attempts), 500);
  const leaseMs = services.config.claimLease * 1000;
  const loop = startClaimLoop<DeliveryRow, number>({
    name: "delivery queue",
    concurrency: options.concurrency ?? 64,
    pollMs: options.pollMs ?? 1000,
    leaseMs,
    claim: (room) => claimDue(services.db, room, leaseMs),
    renew: (ids, until) => renewLeases(services.db, ids, until),
    run: async (row) => {
      const observe = observeDelivery(services, row);
      const at = Date.now();
      const started = performance.now();
      const result = await attemptDelivery(services, row, options.receive);
      const durationMs = Math.round(performance.now() - started);
      observe(await record({ row, result, at, durationMs }));
    },
  });
  const unsubscribe = services.bus.subscribe((message) => {
    if (message.stream === BUS_NAME) loop.wake();
  });
  return {
    async stop() {
      unsubscribe();
      await loop.stop();
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "?";
  }
}
