import type { Services } from "../services.ts";
import { backlogByHost, type BacklogRow } from "./backlog.store.ts";
import type { Backlog } from "./host-health.ts";
import { MAX_ATTEMPTS } from "./outcome.ts";

// GET /fe/account/backlog: how much waits to be delivered for the account's actors, how old the
// oldest is, and the hosts it waits for most (docs/api.md#get-feaccountbacklog).

const WORST_HOSTS = 10;

export async function readBacklog(services: Services, accountId: number): Promise<Backlog> {
  const now = Date.now();
  // A delivery one attempt from giving up has made MAX_ATTEMPTS - 1 attempts.
  const rows = await backlogByHost(services.db, accountId, now, MAX_ATTEMPTS - 1);
  const ageS = (since: number | null) =>
    since === null ? null : Math.max(0, Math.round((now - since) / 1000));
  const oldest = rows.reduce<number | null>(
    (min, r) => (r.oldest !== null && (min === null || r.oldest < min) ? r.oldest : min),
    null,
  );
  return {
    waiting: sum(rows, "waiting"),
    inFlight: sum(rows, "inFlight"),
    retrying: sum(rows, "retrying"),
    nearGiveUp: sum(rows, "nearGiveUp"),
    oldestWaitingAgeS: ageS(oldest),
    worstHosts: rows
      .filter((r) => r.waiting > 0)
      .sort((a, b) => b.waiting - a.waiting || (a.oldest ?? 0) - (b.oldest ?? 0))
      .slice(0, WORST_HOSTS)
      .map((r) => ({ host: r.host, waiting: r.waiting, oldestAgeS: ageS(r.oldest) ?? 0 })),
  };
}

const sum = (rows: BacklogRow[], key: "waiting" | "inFlight" | "retrying" | "nearGiveUp") =>
  rows.reduce((total, r) => total + r[key], 0);
