// The record of one trigger, as GET /fe/actor/triggers/{id} answers it (docs/server-guide.md#triggers).
// Imports only import-free files: fe/wire.ts re-exports it, and the console type-checks it.

import type { DeliveryAttempt } from "../delivery/host-health.ts";

export interface TriggerRecord {
  id: string;
  method: string;
  actor: string;
  /**
   * Corral's addition (workbench "Open in Perform"): the call's body as accepted, without
   * `actor`, so the console can open the call again in Perform.
   */
  data?: Record<string, unknown>;
  receivedAt: string;
  state: "queued" | "running" | "done" | "failed";
  error: string | null;
  deliveries: Array<{
    inbox: string;
    state: "queued" | "delivered" | "retrying" | "failed" | "refused" | "stopped";
    status: number | null;
    attempts: number;
    lastError: string | null;
    nextAttemptAt: string | null;
    deliveredAt: string | null;
    /**
     * Corral's addition (docs/api.md#get-feaccounthostshost): each attempt, oldest first, as a
     * host's attempts list them (`attempts` is their count, as docs/api.md#get-feactortriggersid
     * has it).
     */
    attemptLog?: DeliveryAttempt[];
  }>;
  events: Array<{ stream: string; id: number }>;
}
