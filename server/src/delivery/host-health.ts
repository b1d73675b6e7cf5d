// One remote host's delivery health, as GET /fe/account/hosts lists it
// (docs/api.md#delivery-health), and its detail (docs/api.md#get-feaccounthostshost). Imports only
// import-free files: fe/wire.ts re-exports it, and the console type-checks it.

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
  /** Corral's addition: why the latest failure failed, in words (a host never reached too). */
  lastError?: string | null;
  /** The hold of a failing host (docs/server-guide.md#delivery), or null. */
  hold?: HostHold | null;
}

export interface HostHold {
  since: string;
  nextProbeAt: string | null;
  reason: string;
}

/** One delivery attempt: when, where, the answer (status null: none), how long, the start of its body. */
export interface DeliveryAttempt {
  at: string;
  inbox: string;
  status: number | null;
  durationMs: number;
  error: string | null;
  /** The first 300 bytes of the answer's body (null: no answer, or a 2xx, whose body is not read). */
  response: string | null;
}

/**
 * `GET /fe/account/backlog` (docs/api.md#get-feaccountbacklog): what waits for delivery, for the
 * account's actors.
 */
export interface Backlog {
  /** Queued, retrying or stopped, and not being attempted right now. */
  waiting: number;
  inFlight: number;
  retrying: number;
  /** Retrying with one attempt left. */
  nearGiveUp: number;
  oldestWaitingAgeS: number | null;
  worstHosts: Array<{ host: string; waiting: number; oldestAgeS: number }>;
}

/** One step of `POST /fe/account/hosts/{host}/check` (docs/server-guide.md#delivery, "Diagnosis"). */
export interface HostCheckStep {
  step: "resolve" | "connect" | "nodeinfo" | "webfinger" | "actor" | "inbox";
  ok: boolean;
  ms: number;
  /** What it found, or why it failed; "skipped: …" for a step with nothing to check. */
  detail: string;
}

export interface HostCheck {
  steps: HostCheckStep[];
  /** One sentence naming the first step that failed, in words (or that every step passed). */
  verdict: string;
}

/**
 * One line of the check streamed as NDJSON (`Accept: application/x-ndjson`): `{"running": step}`
 * as a step starts, the step itself as it completes, and last the whole HostCheck.
 */
export type HostCheckLine = { running: HostCheckStep["step"] } | HostCheckStep | HostCheck;
