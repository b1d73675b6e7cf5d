import type { Services } from "../services.ts";
import { execute, findMethod } from "../methods/index.ts";
import { observeTrigger } from "../metrics/observe.ts";
import { startClaimLoop } from "../delivery/claim-loop.ts";
import {
  claimTriggers,
  finishTrigger,
  renewTriggerLeases,
  type TriggerRow,
} from "./triggers.store.ts";
import { newTriggerRun } from "./trigger-run.ts";
import { startSweeping } from "./sweep.ts";

// Runs recorded triggers: queued ones, and running ones whose lease ran out because their
// process died (on SQLite, main.ts releases those at start). Woken by a bus message when a
// trigger is recorded; a slow poll catches expired leases.

export const TRIGGER_LEASE_MS = 30_000;
export const TRIGGER_BUS_NAME = "triggers";

export function startTriggerWorker(
  services: Services,
  options: { concurrency?: number; pollMs?: number } = {},
): { stop(): Promise<void> } {
  const loop = startClaimLoop<TriggerRow, string>({
    name: "trigger worker",
    concurrency: options.concurrency ?? 16,
    pollMs: options.pollMs ?? 2000,
    leaseMs: TRIGGER_LEASE_MS,
    claim: (room) => claimTriggers(services.db, room, TRIGGER_LEASE_MS),
    renew: (ids, until) => renewTriggerLeases(services.db, ids, until),
    run: (row) => {
      const running = runTrigger(services, row);
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

async function runTrigger(services: Services, row: TriggerRow): Promise<void> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(row.body) as Record<string, unknown>;
  } catch {
    await finishTrigger(services.db, row.id, "the stored body is not JSON");
    return;
  }
  const input = { accountId: row.account_id, method: row.method, known: !!findMethod(row.method) };
  const error = await observeTrigger(
    services,
    input,
    execute(services, { ...input, body, trigger: newTriggerRun(row.id) }),
  );
  await finishTrigger(services.db, row.id, error);
}
