import type { Services } from "../services.ts";
import {
  claimDue,
  insertDeliveries,
  recordOutcomes,
  type DeliveryRow,
} from "../db/deliveries.store.ts";
import type { Receive } from "../receive/accept-activity.ts";
import { attemptDelivery, type Outcome } from "./attempt.ts";
import { observeDelivery } from "../metrics/observe.ts";

// Our own durable delivery queue on the `deliveries` table (see docs/adr/0001-own-delivery-queue.md):
// rows are claimed atomically (UPDATE … WHERE locked_until < now … RETURNING), so several
// processes sharing PostgreSQL can work one queue; attempts run concurrently off the request
// path; their outcomes are written back in groups, one transaction per group.

export interface DeliveryJob {
  actorId: string;
  accountId: number;
  inboxes: string[];
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

const wakers = new WeakMap<Services, () => void>();

/** Queues one POST of `body` per inbox, durably, and wakes this process's worker. */
export async function enqueueDeliveries(services: Services, job: DeliveryJob): Promise<void> {
  if (job.inboxes.length === 0) return;
  await insertDeliveries(
    services.db,
    job.inboxes.map((inbox) => ({ ...job, inbox })),
  );
  wakers.get(services)?.();
}

/** Starts delivering queued rows in the background until stop() (which lets attempts finish). */
export function startDeliveryWorker(
  services: Services,
  options: WorkerOptions = {},
): { stop(): Promise<void> } {
  const concurrency = options.concurrency ?? 64;
  const pollMs = options.pollMs ?? 1000;
  let stopped = false;
  let inFlight = 0;
  let pending: Outcome[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  const idle = new Set<() => void>();
  let signalled = false;
  let endWait: (() => void) | undefined;

  const wake = () => {
    signalled = true;
    endWait?.();
  };
  const waitForWork = () =>
    new Promise<void>((resolve) => {
      if (signalled || stopped) return resolve();
      const timer = setTimeout(() => endWait?.(), pollMs);
      endWait = () => {
        clearTimeout(timer);
        endWait = undefined;
        resolve();
      };
    });

  // Outcomes are written together: at 100, or 20 ms after the first of a group.
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.length === 0) return flushing;
    const group = pending;
    pending = [];
    flushing = flushing
      .then(() =>
        recordOutcomes(
          services.db,
          group.filter((o) => o.kind !== "retry").map((o) => o.id),
          group.filter((o) => o.kind === "retry"),
        ),
      )
      .catch((error) =>
        console.error(
          `delivery queue: could not record ${group.length} outcomes: ${(error as Error).message}`,
        ),
      );
    return flushing;
  };
  const settle = (outcome: Outcome) => {
    pending.push(outcome);
    inFlight--;
    if (pending.length >= 100) void flush();
    else flushTimer ??= setTimeout(flush, 20);
    if (inFlight === 0) for (const done of idle) done();
    wake();
  };

  const run = async () => {
    while (!stopped) {
      signalled = false;
      const room = concurrency - inFlight;
      let claimed: DeliveryRow[] = [];
      if (room > 0) {
        try {
          claimed = await claimDue(services.db, room);
        } catch (error) {
          console.error(`delivery queue: claim failed: ${(error as Error).message}`);
        }
      }
      for (const row of claimed) {
        inFlight++;
        void attemptDelivery(services, row, options.receive)
          .then(observeDelivery(services, row))
          .then(settle);
      }
      if (claimed.length > 0 && claimed.length === room) continue;
      await waitForWork();
    }
  };

  wakers.set(services, wake);
  const loop = run();
  return {
    async stop() {
      stopped = true;
      wake();
      await loop;
      if (inFlight > 0) await new Promise<void>((resolve) => idle.add(resolve));
      await flush();
      wakers.delete(services);
    },
  };
}
