import { listFollowerInboxes } from "../follows/followers.store.ts";
import type { Services } from "../services.ts";
import { reportError } from "../events/report-error.ts";
import { enqueueDeliveries } from "./queue.ts";
import { recordOutgoingFollows } from "../follows/outgoing.ts";
import { idsOf, parseActivityPub } from "../activitypub/parse.ts";
import { resolveInboxes } from "./remote-inboxes.ts";

// Sending as one of our actors: the data goes out exactly as given (bto and bcc removed, as
// ActivityPub requires), to every inbox its audience names, the actor's followers expanded.

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);
const AUDIENCE_KEYS = ["to", "cc", "bto", "bcc", "audience"];

export interface SendInput {
  accountId: number;
  actorId: string;
  data: Record<string, unknown>;
  routingKey: string;
  /** The method's body, quoted in error events. */
  original: unknown;
}

/** Queues `data` for every addressed inbox and records the outgoing event; never throws for a bad target. */
export async function sendAsActor(services: Services, input: SendInput): Promise<void> {
  const { bto: _bto, bcc: _bcc, ...sent } = input.data;
  const body = JSON.stringify(sent);
  const original =
    typeof input.original === "string" ? input.original : JSON.stringify(input.original);
  try {
    await recordOutgoingFollows(services, input.actorId, input.data);
  } catch (error) {
    await reportError(services, input.accountId, input.routingKey, original, [
      (error as Error).message,
    ]);
  }
  const inboxes = await collectInboxes(services, input, original);
  await enqueueDeliveries(services, {
    actorId: input.actorId,
    accountId: input.accountId,
    inboxes,
    body,
    routingKey: input.routingKey,
    original,
  });
  await services.events.append(input.accountId, "outgoing", {
    actor: input.actorId,
    event_type: "outgoing",
    data: { raw: sent, parsed: parseActivityPub(sent) },
    history_id: null,
  });
}

async function collectInboxes(
  services: Services,
  input: SendInput,
  original: string,
): Promise<string[]> {
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
  const resolved = await mapLimit(remote, 8, (target) =>
    resolveInboxes(services, input.actorId, target),
  );
  for (const [index, result] of resolved.entries()) {
    if (result.ok) {
      inboxes.add(isBlind(remote[index]!) ? result.inbox : (result.sharedInbox ?? result.inbox));
      continue;
    }
    await reportError(
      services,
      input.accountId,
      input.routingKey,
      original,
      [`no delivery to ${remote[index]}: refused before sending`, result.reason],
      { inbox: null, target: remote[index], status: null, attempt: 0, final: true },
    );
  }
  return [...inboxes];
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
