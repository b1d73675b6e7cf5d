import { listFollowerInboxes } from "../follows/followers.store.ts";
import type { Services } from "../services.ts";
import { reportError } from "../events/report-error.ts";
import { announceDeliveries, queueDeliveries } from "../delivery/queue.ts";
import { recordOutgoingFollows } from "./outgoing-follows.ts";
import { actorInfoOf } from "../activitypub/actor-info.ts";
import { normalizeData } from "../activitypub/muck-out.ts";
import { idOf, idsOf } from "../activitypub/parse.ts";
import { resolveInboxes } from "../delivery/remote-inboxes.ts";
import { claimSend, linkEvent } from "../db/triggers.store.ts";
import type { TriggerRun } from "./trigger-run.ts";

// Sending as one of our actors: the data goes out exactly as given (bto and bcc removed, as
// ActivityPub requires), to every inbox its audience names, the actor's followers expanded.
// The outgoing event and the queued deliveries land in one transaction: both or neither.

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);
const AUDIENCE_KEYS = ["to", "cc", "bto", "bcc", "audience"];

export interface SendInput {
  accountId: number;
  actorId: string;
  data: Record<string, unknown>;
  routingKey: string;
  /** The method's body, quoted in error events. */
  original: unknown;
  /** The trigger this send belongs to, when one runs it. */
  trigger?: TriggerRun;
}

/** Actor documents fetched at once for one send (half as many as deliveries in flight). */
const RESOLVING = 32;

type Refused = { target: string; reason: string; hostFailed?: boolean };

/** Queues `data` for every addressed inbox and records the outgoing event; never throws for a bad target. */
export async function sendAsActor(services: Services, input: SendInput): Promise<void> {
  const { bto: _bto, bcc: _bcc, ...sent } = input.data;
  const body = JSON.stringify(sent);
  const original =
    typeof input.original === "string" ? input.original : JSON.stringify(input.original);
  const triggerId = input.trigger?.id ?? null;
  const n = input.trigger ? ++input.trigger.sends : 0;
  try {
    await recordOutgoingFollows(services, input.actorId, input.data);
  } catch (error) {
    await reportError(
      services,
      input.accountId,
      input.routingKey,
      original,
      [(error as Error).message],
      {},
      triggerId,
    );
  }
  const { inboxes, refused } = await collectInboxes(services, input);
  const event = {
    actor: input.actorId,
    event_type: "outgoing",
    data: { raw: sent, parsed: normalizeData(sent, input.actorId) },
    history_id: null,
    trigger_id: triggerId,
    actor_info: await actorInfoOf(services, idOf(sent.actor) ?? input.actorId),
  };
  const seq = await services.events.appendInTransaction(
    input.accountId,
    "outgoing",
    event,
    async (tx) => {
      // A re-run of a trigger after a crash skips what its first run committed.
      if (triggerId !== null && !(await claimSend(tx, triggerId, n))) return false;
      const job = { ...input, triggerId, inboxes, refused, body, original };
      await queueDeliveries(tx, job);
      return true;
    },
    triggerId === null ? undefined : (tx, s) => linkEvent(tx, triggerId, "outgoing", s),
  );
  if (seq === null) return;
  announceDeliveries(services);
  for (const { target, reason } of refused) {
    await reportError(
      services,
      input.accountId,
      input.routingKey,
      original,
      [`no delivery to ${target}: refused before sending`, reason],
      { inbox: null, target, status: null, attempt: 0, final: true },
      triggerId,
    );
  }
}

async function collectInboxes(
  services: Services,
  input: SendInput,
): Promise<{ inboxes: string[]; refused: Refused[] }> {
  const targets = new Set(AUDIENCE_KEYS.flatMap((key) => idsOf(input.data[key])));
  // bto/bcc vanish before sending, so a shared inbox could not tell whom such a copy is for:
  // blind recipients get it in their own inbox.
  const open = new Set(["to", "cc", "audience"].flatMap((key) => idsOf(input.data[key])));
  const isBlind = (id: string) => !open.has(id);
  const followersUrl = `${input.actorId}/followers`;
  const inboxes = new Set<string>();
  if (targets.delete(followersUrl)) {
    const rows = await listFollowerInboxes(services.db, input.actorId);
    for (const row of rows)
      inboxes.add(isBlind(followersUrl) ? row.inbox : (row.shared_inbox ?? row.inbox));
  }
  targets.delete(input.actorId);
  const remote = [...targets].filter((id) => !PUBLIC.has(id));
  // Actors not resolved yet are fetched RESOLVING at a time: each fetch mostly waits on the
  // network, and nothing is queued before all are resolved (at 8, a send to 500 new actors waited
  // on 63 turns of GETs: issue 34).
  const resolved = await mapLimit(remote, RESOLVING, (target) =>
    resolveInboxes(services, input.actorId, target),
  );
  const refused: Refused[] = [];
  for (const [index, result] of resolved.entries()) {
    if (result.ok)
      inboxes.add(isBlind(remote[index]!) ? result.inbox : (result.sharedInbox ?? result.inbox));
    // Not `refused` by the resolver: the target's host was tried and failed (unreachable, 4xx, 5xx).
    else
      refused.push({ target: remote[index]!, reason: result.reason, hostFailed: !result.refused });
  }
  return { inboxes: [...inboxes], refused };
}

async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}
