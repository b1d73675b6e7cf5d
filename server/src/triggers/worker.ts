import { getLogger } from "@logtape/logtape";
import type { Services } from "../services.ts";
import { findMethod, runMethod } from "../methods/index.ts";
import { observeTrigger } from "../metrics/observe.ts";
import { startClaimLoop } from "../db/claim-loop.ts";
import {
  claimTriggers,
  finishTrigger,
  renewTriggerLeases,
  requeueTrigger,
  type TriggerRow,
} from "../db/triggers.store.ts";
import { newTriggerRun } from "../methods/trigger-run.ts";
import { startSweeping } from "./sweep.ts";

// Runs recorded triggers: queued ones, and running ones whose lease ran out because their
// process died (on SQLite, main.ts releases those at start). Woken by a bus message when a
// trigger is recorded; a slow poll catches expired leases. An accepted trigger ends as failed
// only when its method refused (or has a bug); a run the database cut short (a serialization
// failure, a deadlock, a lost connection, a busy file) is run again after a backoff.

export const TRIGGER_BUS_NAME = "triggers";
// Backoff between runs cut short by the database: 0.5 s doubling to 30 s, ±20 %, never giving up
// (an accepted trigger is never dropped; the database will answer again).
const RETRY_FIRST_MS = 500;
const RETRY_CAP_MS = 30_000;

const log = getLogger(["corral", "trigger"]);

export function retryDelay(attempt: number): number {
  const base = Math.min(RETRY_CAP_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt - 1, 16));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

export function startTriggerWorker(
  services: Services,
  options: { concurrency?: number; pollMs?: number } = {},
): { stop(): Promise<void> } {
  // Runs cut short so far, per trigger, in this process (another process starts again at one).
  const attempts = new Map<string, number>();
  // --claim-lease: how long a running trigger of a process that died stays claimed.
  const leaseMs = services.config.claimLease * 1000;
  const loop = startClaimLoop<TriggerRow, string>({
    name: "trigger worker",
    concurrency: options.concurrency ?? 16,
    pollMs: options.pollMs ?? 2000,
    leaseMs,
    claim: (room) => claimTriggers(services.db, room, leaseMs),
    renew: (ids, until) => renewTriggerLeases(services.db, ids, until),
    run: (row) => {
      const running = runTrigger(services, row, attempts);
      return services.tasks ? services.tasks.track(running) : running;
    },
  });
  const unsubscribe = services.bus.subscribe((message) => {
    if (message.stream === TRIGGER_BUS_NAME) loop.wake();
  });
  const stopSweeping = startSweeping(services.db);
  return {
    async stop() {
      unsubscribe();
      await loop.stop();
      await stopSweeping();
    },
  };
}

async function runTrigger(
  services: Services,
  row: TriggerRow,
  attempts: Map<string, number>,
): Promise<void> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(row.body) as Record<string, unknown>;
  } catch {
    await finishTrigger(services.db, row.id, "the stored body is not JSON");
    return;
  }
  const input = { accountId: row.account_id, method: row.method, known: !!findMethod(row.method) };
  const outcome = await observeTrigger(
    services,
    input,
    runMethod(services, { ...input, body, trigger: newTriggerRun(row.id) }),
  );
  if (outcome.ok || outcome.final) {
    attempts.delete(row.id);
    await finishTrigger(services.db, row.id, outcome.ok ? null : outcome.error);
    return;
  }
  const attempt = (attempts.get(row.id) ?? 0) + 1;
  attempts.set(row.id, attempt);
  const delayMs = retryDelay(attempt);
  log.warn(
    "trigger {id} ({method}) cut short by the database, run again in {delayMs} ms: {error}",
    {
      id: row.id,
      method: input.known ? row.method : "unknown",
      attempt,
      delayMs,
      error: outcome.error,
    },
  );
  await requeueTrigger(services.db, row.id, Date.now() + delayMs);
}
