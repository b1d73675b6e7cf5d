// The work a process does beside answering HTTP, in one place: `--role all` and `--role worker`
// start it, `--role web` does not (docs/operations.md#several-processes-on-one-postgresql). main.ts
// calls startBackgroundWork(); a new kind of background work (the trigger worker) is started and
// stopped here too.

import { getLogger } from "@logtape/logtape";
import { deleteExpiredTokens } from "./accounts/index.ts";
import { deleteExpiredKvEntries } from "./db/kv-sweep.store.ts";
import { startDeliveryWorker } from "./delivery/queue.ts";
import { receiveActivity } from "./federation/index.ts";
import { startTriggerWorker } from "./triggers/index.ts";
import type { Services } from "./services.ts";

const log = getLogger(["corral", "background"]);

export interface BackgroundOptions {
  /** Between two sweeps of expired rows. */
  sweepEveryMs?: number;
  /** Rows deleted per table and sweep, so one sweep never holds the database for long. */
  sweepLimit?: number;
}

export interface BackgroundWork {
  stop(): Promise<void>;
}

export function startBackgroundWork(
  services: Services,
  options: BackgroundOptions = {},
): BackgroundWork {
  const delivery = startDeliveryWorker(services, { receive: receiveActivity });
  const triggers = startTriggerWorker(services);
  const sweeper = startSweeper(services, options);
  return {
    async stop() {
      // Triggers first: a running one may still queue deliveries for the delivery worker.
      await triggers.stop();
      await Promise.all([sweeper.stop(), delivery.stop()]);
    },
  };
}

export interface SweepResult {
  tokens: number;
  kvEntries: number;
}

/** One bounded sweep: expired sign-in tokens and Fedify cache entries. */
export async function sweepExpired(
  services: Services,
  now = Date.now(),
  limit = 1000,
): Promise<SweepResult> {
  const tokens = await deleteExpiredTokens(services.db, now, limit);
  const kvEntries = await deleteExpiredKvEntries(services.db, now, limit);
  return { tokens, kvEntries };
}

function startSweeper(services: Services, options: BackgroundOptions): BackgroundWork {
  const every = options.sweepEveryMs ?? 60_000;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweepExpired(services, Date.now(), options.sweepLimit).catch((error: Error) =>
      log.error("sweeping expired rows failed: {error}", { error: error.message }),
    );
  }, every);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
