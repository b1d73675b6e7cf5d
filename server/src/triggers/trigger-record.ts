// The record of one trigger, as GET /fe/actor/triggers/{id} answers it (server.md section 8).
// Without imports: fe/wire.ts re-exports it, and the console type-checks it.

export interface TriggerRecord {
  id: string;
  method: string;
  actor: string;
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
  }>;
  events: Array<{ stream: string; id: number }>;
}
