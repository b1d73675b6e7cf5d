import { findLocalActor } from "../activitypub/local-keys.ts";
import { idOf, parseActivityPub } from "../activitypub/parse.ts";
import type { Services } from "../services.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import { markSeen, sweepSeen } from "./inbox-seen.store.ts";
import { findAddressedActors } from "./recipients.ts";

/** Receiving an activity, as the delivery queue is handed it for inboxes on this server. */
export type Receive = (
  services: Services,
  raw: Record<string, unknown>,
  sender: string,
  actorId: string | null,
) => Promise<Received>;

/** Taken (a replay is taken too, and adds nothing), or refused with the reason. */
export type Received = { ok: true } | { ok: false; reason: string };

/** How long an activity id is remembered: longer than any sender keeps retrying one. */
export const SEEN_FOR_MS = 7 * 24 * 3600_000;
const SWEEP_EVERY_MS = 3600_000;
const lastSweep = new WeakMap<Services, number>();

/**
 * What happens to an activity from `sender`, the actor whose signature checked out (or, on this
 * server, the actor whose delivery it is): an incoming event per addressed actor that has not
 * had this activity id from this sender before, then its type's handler. An activity whose
 * `actor` is not its sender is refused, as an inbox refuses a request signed by someone else.
 */
export async function acceptActivity(
  services: Services,
  handlers: InboxHandlers,
  raw: Record<string, unknown>,
  sender: string,
  actorId: string | null,
): Promise<Received> {
  const claimed = idOf(raw.actor);
  if (claimed !== sender) {
    return {
      ok: false,
      reason: `the activity's actor ${claimed ?? "(none)"} is not its sender ${sender}`,
    };
  }
  const parsed = parseActivityPub(raw);
  const addressed = actorId !== null ? [actorId] : await findAddressedActors(services, raw, sender);
  const activityId = typeof raw.id === "string" ? raw.id : null;
  const recipients: string[] = [];
  for (const recipient of addressed) {
    // Marked before the event is written: a crash between the two loses this one activity
    // rather than letting two concurrent copies both through.
    if (activityId !== null) {
      const seen = { actorId: recipient, activityId, senderId: sender, at: Date.now() };
      if (!(await markSeen(services.db, seen))) continue;
    }
    recipients.push(recipient);
    const accountId = (await findLocalActor(services.db, recipient))?.accountId;
    if (accountId == null) continue;
    await services.events.append(accountId, "incoming", {
      actor: recipient,
      event_type: "incoming",
      data: { raw, parsed },
      history_id: null,
      trigger_id: null,
    });
  }
  await sweepNowAndThen(services);
  // A replay to every addressed actor changes nothing (no second Accept, no second follower).
  if (addressed.length > 0 && recipients.length === 0) return { ok: true };
  await handlers.for(raw)?.(services, { raw, sender, recipients });
  return { ok: true };
}

async function sweepNowAndThen(services: Services) {
  const now = Date.now();
  if (now - (lastSweep.get(services) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(services, now);
  await sweepSeen(services.db, now - SEEN_FOR_MS);
}
