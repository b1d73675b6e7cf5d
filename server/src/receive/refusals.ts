import { getLogger } from "@logtape/logtape";
import { findActorAccounts } from "../actors/index.ts";
import { idsOf } from "../activitypub/parse.ts";
import type { Services } from "../services.ts";
import {
  addInboundCounts,
  DAY_MS,
  deleteOldInboundDays,
  inboundByOutcome,
  insertRefusals,
  listRefusals,
  NO_ACCOUNT,
  TRIM_EVERY,
  trimRefusals,
  type InboundCount,
  type RefusalRow,
} from "./refusals.store.ts";
import {
  refusalReasons,
  type Inbound,
  type RefusalEntry,
  type RefusalPage,
  type RefusalReason,
} from "./refusal-types.ts";

export { refusalReasons, type Inbound, type RefusalEntry, type RefusalPage, type RefusalReason };

// The inbox's record of what it refused and what it took, per remote host
// (docs/server-guide.md#what-the-inbox-refused). Never on the inbox's path: each call queues its item and
// returns; the items of GATHER_MS are attributed to accounts together (actors' accounts remembered
// for a minute) and written in one transaction.

/** One refused request as the inbox saw it. */
export interface Refusal extends Omit<RefusalRow, "accountId"> {
  /** Our actors it was addressed to: the inbox's own actor, or those named in to/cc/bto/bcc. */
  addressedTo: string[];
}

/** At most this much of a refused body is kept. */
export const KEPT_BODY_BYTES = 4096;

type Item =
  | { kind: "refused"; refusal: Refusal }
  | { kind: "accepted"; accounts: number[]; host: string; at: number };

const SWEEP_EVERY_MS = 3600_000;
/** How long the record gathers requests before writing them together. */
const GATHER_MS = 20;
const log = getLogger(["corral", "inbox"]);

interface Writer {
  pending: Item[];
  scheduled: boolean;
  /** The group being written; the next waits for it, and gathers what arrives meanwhile. */
  writing: Promise<void>;
  lastSweep: number;
  /** Rows written per account since its last trim (an account not yet seen is trimmed first). */
  sinceTrim: Map<number, number>;
  /** Whose our actors are (null: not ours), as last read; forgotten every ACCOUNT_CACHE_MS. */
  accountOf: Map<string, number | null>;
  accountsReadAt: number;
}

/**
 * How long the actors' accounts are taken as read (a deleted actor's refusals may be attributed
 * to its account this long after).
 */
const ACCOUNT_CACHE_MS = 60_000;
const ACCOUNT_CACHE_MAX = 10_000;

const writers = new WeakMap<Services, Writer>();

// Grouped (one transaction for what GATHER_MS received, the next group waiting for the one being
// written), without a promise per item: nobody waits for a record, and the refused path stays as
// cheap as the accepted one.
function write(services: Services, item: Item): void {
  let writer = writers.get(services);
  if (!writer) {
    writer = {
      pending: [],
      scheduled: false,
      writing: Promise.resolve(),
      lastSweep: 0,
      sinceTrim: new Map(),
      accountOf: new Map(),
      accountsReadAt: 0,
    };
    writers.set(services, writer);
  }
  writer.pending.push(item);
  if (writer.scheduled) return;
  writer.scheduled = true;
  const current = writer;
  // What arrives within GATHER_MS goes into one transaction: a commit costs several times a
  // refusal's own row, so a group per turn of the event loop (often one refusal) spent most of
  // the record's CPU committing.
  current.writing = current.writing
    .then(() => new Promise((resolve) => setTimeout(resolve, GATHER_MS)))
    .then(async () => {
      current.scheduled = false;
      const items = current.pending.splice(0);
      await writeItems(services, current, items).catch((error: Error) =>
        log.error("recording {count} inbox requests failed: {error}", {
          count: items.length,
          error: error.message,
        }),
      );
    });
  // Shutting down waits for what was queued (main.ts drains services.tasks before closing).
  services.tasks?.track(current.writing);
}

async function writeItems(services: Services, writer: Writer, items: Item[]): Promise<void> {
  const refusals = items.flatMap((i) => (i.kind === "refused" ? [i.refusal] : []));
  const now = Date.now();
  const accountOf = writer.accountOf;
  if (now - writer.accountsReadAt > ACCOUNT_CACHE_MS || accountOf.size > ACCOUNT_CACHE_MAX) {
    accountOf.clear();
    writer.accountsReadAt = now;
  }
  const unknown = [...new Set(refusals.flatMap((r) => r.addressedTo))].filter(
    (id) => !accountOf.has(id),
  );
  if (unknown.length > 0) {
    for (const id of unknown) accountOf.set(id, null);
    for (const actor of await findActorAccounts(services.db, unknown))
      accountOf.set(actor.id, actor.accountId);
  }
  const rows: RefusalRow[] = [];
  const counts = new Map<string, InboundCount>();
  const count = (accountId: number, host: string, outcome: string, at: number) => {
    const day = Math.floor(at / DAY_MS);
    const key = `${accountId} ${day} ${outcome} ${host}`;
    const found = counts.get(key);
    if (found) {
      found.n++;
      found.lastAt = Math.max(found.lastAt, at);
    } else counts.set(key, { accountId, host, day, outcome, n: 1, lastAt: at });
  };
  for (const item of items) {
    if (item.kind === "accepted") {
      for (const accountId of item.accounts) count(accountId, item.host, "accepted", item.at);
      continue;
    }
    const { addressedTo, ...refusal } = item.refusal;
    const accounts = new Set<number>();
    for (const id of addressedTo) {
      const accountId = accountOf.get(id);
      if (accountId !== undefined && accountId !== null) accounts.add(accountId);
    }
    if (accounts.size === 0) accounts.add(NO_ACCOUNT);
    const host = refusal.actorHost ?? refusal.keyHost;
    for (const accountId of accounts) {
      rows.push({ ...refusal, accountId });
      if (host !== null) count(accountId, host, refusal.reason, refusal.receivedAt);
    }
  }
  const trim: number[] = [];
  for (const { accountId } of rows) {
    const since = writer.sinceTrim.get(accountId);
    if (since === undefined || since + 1 >= TRIM_EVERY) {
      if (!trim.includes(accountId)) trim.push(accountId);
      writer.sinceTrim.set(accountId, 0);
    } else writer.sinceTrim.set(accountId, since + 1);
  }
  await services.db.transaction(async (tx) => {
    if (rows.length > 0) await insertRefusals(tx, rows);
    if (trim.length > 0) await trimRefusals(tx, trim);
    if (counts.size > 0) await addInboundCounts(tx, [...counts.values()]);
  });
  if (now - writer.lastSweep > SWEEP_EVERY_MS) {
    writer.lastSweep = now;
    await deleteOldInboundDays(services.db, now);
  }
}

/** Records a refused inbox request (answered before it is written). */
export function recordRefusal(services: Services, refusal: Refusal): void {
  write(services, { kind: "refused", refusal });
}

/** Counts an accepted activity from `host` for the accounts whose actors took it. */
export function recordAccepted(services: Services, host: string, accounts: number[]): void {
  if (accounts.length === 0) return;
  write(services, { kind: "accepted", accounts, host, at: Date.now() });
}

/** Whom an activity names in to/cc/bto/bcc (ids not of our actors find no account); 100 at most. */
export function addressedIn(activity: Record<string, unknown>): string[] {
  const named: string[] = [];
  for (const key of ["to", "cc", "bto", "bcc"]) named.push(...idsOf(activity[key]));
  return named.filter((id) => id.startsWith("http")).slice(0, 100);
}

/** The accounts whose refusals an account sees: its own, and for an admin the unattributed. */
export const refusalAccountsOf = (account: { id: number; admin: boolean }) =>
  account.admin ? [account.id, NO_ACCOUNT] : [account.id];

export async function readRefusals(
  services: Services,
  account: { id: number; admin: boolean },
  query: { host?: string; reason?: RefusalReason; before?: number; limit: number },
): Promise<RefusalPage> {
  const rows = await listRefusals(services.db, {
    ...query,
    accountIds: refusalAccountsOf(account),
  });
  return {
    refusals: rows.slice(0, query.limit).map((r) => ({
      id: r.id,
      at: new Date(r.receivedAt).toISOString(),
      client: r.client,
      inbox: r.inbox,
      keyId: r.keyId,
      keyHost: r.keyHost,
      actorHost: r.actorHost,
      activityId: r.activityId,
      activityType: r.activityType,
      status: r.status,
      reason: r.reason as RefusalReason,
      detail: r.detail,
      body: r.body,
      attributed: r.accountId !== NO_ACCOUNT,
    })),
    more: rows.length > query.limit,
  };
}

export async function readInbound(
  services: Services,
  account: { id: number; admin: boolean },
  host: string,
): Promise<Inbound> {
  const counts = await inboundByOutcome(services.db, refusalAccountsOf(account), host, Date.now());
  const inbound: Inbound = {
    lastAcceptedAt: null,
    lastRefusedAt: null,
    accepted7d: 0,
    refused7d: 0,
    refusedByReason: {},
  };
  let lastRefused = -1;
  for (const [outcome, { n, lastAt }] of counts) {
    if (outcome === "accepted") {
      inbound.accepted7d = n;
      inbound.lastAcceptedAt = new Date(lastAt).toISOString();
      continue;
    }
    inbound.refused7d += n;
    inbound.refusedByReason[outcome as RefusalReason] = n;
    lastRefused = Math.max(lastRefused, lastAt);
  }
  if (lastRefused >= 0) inbound.lastRefusedAt = new Date(lastRefused).toISOString();
  return inbound;
}
