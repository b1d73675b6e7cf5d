import { getLogger } from "@logtape/logtape";
import type { Db } from "../db/db.ts";
import { deleteEndedDeliveries } from "../db/deliveries.store.ts";
import { deleteOldHostDays } from "../delivery/hosts.store.ts";
import { deleteUnusedBodies } from "../delivery/delivery-bodies.store.ts";
import { deleteOldAttempts } from "../delivery/attempts.store.ts";
import { deleteFinishedTriggers } from "../db/triggers.store.ts";

const log = getLogger(["corral", "trigger"]);

// Storage stays bounded (docs/server-guide.md#storage): triggers and deliveries are kept after they end
// so their records can be read, for RETENTION_MS; per-day host counts for a week. Swept at the
// worker's start and then hourly.

export const RETENTION_MS = 30 * 86_400_000;
const EVERY_MS = 3600_000;

export async function sweepEnded(db: Db, now = Date.now()): Promise<void> {
  await deleteEndedDeliveries(db, now - RETENTION_MS);
  await deleteOldAttempts(db, now - RETENTION_MS);
  await deleteUnusedBodies(db, now - RETENTION_MS);
  await deleteFinishedTriggers(db, now - RETENTION_MS);
  await deleteOldHostDays(db, now);
}

/** Sweeps now and hourly until the returned stop (which waits for a sweep under way). */
export function startSweeping(db: Db): () => Promise<void> {
  let current: Promise<void> = Promise.resolve();
  const sweep = () => {
    current = sweepEnded(db).catch((error) =>
      log.error("sweeping ended triggers and deliveries failed: {error}", {
        error: (error as Error).message,
      }),
    );
  };
  sweep();
  const timer = setInterval(sweep, EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
