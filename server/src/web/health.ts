import { Hono } from "hono";
import type { BrokerState } from "../broker/connection.ts";
import type { Db } from "../db/db.ts";
import { migrationsDone } from "../db/schema.ts";

// For load balancers and orchestrators, unauthenticated (docs/server-guide.md#health-metrics-and-logs):
// /healthz says the process is alive; /readyz that its database answers and has every migration of
// this build.

const READY_TIMEOUT_MS = 2000;

/** `notReady`: another part's reason not to be ready yet (e.g. the broker), or null. */
export function createHealthRoutes(
  db: Db,
  options: { ready: boolean; notReady?: () => string | null } = { ready: true },
) {
  const app = new Hono();
  app.get("/healthz", (c) => c.text("ok\n"));
  if (!options.ready) return app;
  app.get("/readyz", async (c) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("the database did not answer in time")),
        READY_TIMEOUT_MS,
      );
    });
    try {
      const done = await Promise.race([migrationsDone(db), timeout]);
      if (!done) return c.text("migrations are not done\n", 503);
      const reason = options.notReady?.();
      if (reason) return c.text(`${reason}\n`, 503);
      return c.text("ready\n");
    } catch (error) {
      return c.text(`database unavailable: ${(error as Error).message}\n`, 503);
    } finally {
      clearTimeout(timer);
    }
  });
  return app;
}

/**
 * Why a broker connection keeps this process from being ready, or null while it is up:
 * "`what`: the broker connection is down (its reason); connecting again in N ms".
 */
export function brokerNotReady(what: string, broker: BrokerState): string | null {
  if (broker.connected) return null;
  const retry =
    broker.retryAt === null
      ? ""
      : `; connecting again in ${Math.max(0, broker.retryAt - Date.now())} ms`;
  return `${what}: the broker connection is down (${broker.lastError ?? "connecting"})${retry}`;
}
