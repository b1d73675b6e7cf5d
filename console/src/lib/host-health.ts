// The console's view of delivery health, docs/api.md#delivery-health: what
// `GET /fe/account/hosts` answers. Corral's addition to cattle_grid's API; a real cattle_grid has
// no such route (404).

export const HOST_STATES = ["ok", "failing", "stopped"] as const;
export type HostState = (typeof HOST_STATES)[number];

/** What the per-host routes do: hold deliveries, send them again, send the failed ones now. */
export type HostAction = "stop" | "resume" | "retry";

/** A delivery to the host that gave up; `triggerId` names the call that caused it. */
export type HostFailedDelivery = {
  inbox: string;
  status: number | null;
  attempts: number;
  lastError: string | null;
  /** Null for a delivery no trigger caused (e.g. an automatic Accept). */
  triggerId: string | null;
};

export type HostHealth = {
  host: string;
  state: HostState;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  failures7d: number;
  /** Failures per day over the last 7 days, oldest first, today last; absent on older servers. */
  failuresByDay?: number[];
  /** When the current run of failures began; absent on servers that do not say. */
  failingSince?: string | null;
  /** Why the newest attempt failed, in words (a host never reached too); absent when none did. */
  lastError?: string | null;
  queued: number;
  failed: HostFailedDelivery[];
};

export const FAILURE_DAYS = 7;

/**
 * Checks an answer before the page trusts it: a proxy or an older server may send anything.
 * Returns null when it is not a list of hosts.
 */
export function readHostList(value: unknown): HostHealth[] | null {
  if (!Array.isArray(value)) return null;
  const hosts = value.map(readHost);
  return hosts.every((host) => host !== null) ? (hosts as HostHealth[]) : null;
}

function readHost(value: unknown): HostHealth | null {
  if (!isRecord(value) || typeof value.host !== "string") return null;
  const { state, failures7d, queued } = value;
  if (typeof state !== "string" || !(HOST_STATES as readonly string[]).includes(state)) {
    return null;
  }
  if (!isCount(failures7d) || !isCount(queued)) return null;
  const lastSuccessAt = value.lastSuccessAt ?? null;
  const lastFailureAt = value.lastFailureAt ?? null;
  if (!isNullableString(lastSuccessAt) || !isNullableString(lastFailureAt)) return null;
  const failed = Array.isArray(value.failed) ? value.failed.map(readFailed) : [];
  if (failed.some((delivery) => delivery === null)) return null;
  const host: HostHealth = {
    host: value.host,
    state: state as HostState,
    lastSuccessAt,
    lastFailureAt,
    failures7d,
    queued,
    failed: failed as HostFailedDelivery[],
  };
  // An extra a server may leave out: a malformed one is dropped, not the whole answer.
  const byDay = value.failuresByDay;
  if (Array.isArray(byDay) && byDay.length === FAILURE_DAYS && byDay.every(isCount)) {
    host.failuresByDay = byDay;
  }
  if (typeof value.failingSince === "string") host.failingSince = value.failingSince;
  if (typeof value.lastError === "string") host.lastError = value.lastError;
  return host;
}

function readFailed(value: unknown): HostFailedDelivery | null {
  if (!isRecord(value) || typeof value.inbox !== "string" || !isCount(value.attempts)) {
    return null;
  }
  const status = value.status ?? null;
  const lastError = value.lastError ?? null;
  const triggerId = value.triggerId ?? null;
  if (status !== null && typeof status !== "number") return null;
  if (!isNullableString(lastError) || !isNullableString(triggerId)) return null;
  return { inbox: value.inbox, status, attempts: value.attempts, lastError, triggerId };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === "string";
}
