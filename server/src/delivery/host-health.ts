// One remote host's delivery health, as GET /fe/account/hosts lists it (server.md section 8).
// Without imports: fe/wire.ts re-exports it, and the console type-checks it.

export interface HostHealth {
  host: string;
  state: "ok" | "failing" | "stopped";
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  failures7d: number;
  queued: number;
  failed: Array<{
    inbox: string;
    status: number | null;
    attempts: number;
    lastError: string | null;
    triggerId: string | null;
  }>;
  /** Corral's addition beside the spec's fields: failed attempts per day, oldest of 7 first. */
  failuresByDay: number[];
  /** When the current run of failures began (the circuit breaker opens after 7 days). */
  failingSince: string | null;
}
