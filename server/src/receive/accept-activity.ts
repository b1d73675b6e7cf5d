import { actorInfoOf } from "../activitypub/actor-info.ts";
import { normalizeData } from "../activitypub/muck-out.ts";
import { idOf, idsOf } from "../activitypub/parse.ts";
import type { Receive, Received } from "../delivery/attempt.ts";
import type { Services } from "../services.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import {
  claimSeen,
  releaseClaim,
  sweepSeen,
  type Claim,
  type SeenKey,
} from "./inbox-seen.store.ts";
import { findAddressedActors, findRecipient, type Recipient } from "./recipients.ts";
import { insertClaimGrouped, markStoredGrouped } from "./stored-marks.ts";

// Receiving is what the delivery queue is handed for inboxes on this server: its type is
// delivery's (attempt.ts), the lower part, which receives it as a callback.
export type { Receive, Received };

/** How long an activity id is remembered: longer than any sender keeps retrying one. */
export const SEEN_FOR_MS = 7 * 24 * 3600_000;
const SWEEP_EVERY_MS = 3600_000;
/** A claim not stored within this long was left by a process that died: the next copy takes it. */
export const CLAIM_STALE_MS = 10_000;
const BUSY_POLL_MS = 25;
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
  // muck_out's view depends on who receives it only when the activity names no one in `to`.
  const shared = idsOf(raw.to).length > 0 ? normalizeData(raw) : null;
  const addressed: Recipient[] =
    actorId !== null
      ? [(await findRecipient(services.db, actorId)) ?? { id: actorId, accountId: null }]
      : await findAddressedActors(services, raw, sender);
  const activityId = typeof raw.id === "string" ? raw.id : null;
  const actorInfo = await actorInfoOf(services, sender);
  const recipients: string[] = [];
  for (const { id: recipient, accountId } of addressed) {
    const key = activityId === null ? null : { actorId: recipient, activityId, senderId: sender };
    const event = () => ({
      actor: recipient,
      event_type: "incoming",
      data: { raw, parsed: shared ?? normalizeData(raw, recipient) },
      history_id: null,
      trigger_id: null,
      actor_info: actorInfo,
    });
    let taken = false;
    if (key && accountId != null) {
      // Claim and event in one commit (docs/adr/0020-inbox-claims-in-the-append.md).
      const now = Date.now();
      const seq = await services.events.appendTaking(accountId, "incoming", event(), {
        claim: key,
        staleBefore: now - CLAIM_STALE_MS,
      });
      if (seq !== null) {
        recipients.push(recipient);
        continue;
      }
      // Another copy holds the claim: a replay, or a copy still being stored (waited for below).
      taken = true;
    }
    if (key && (await claim(services, key, taken)) === "stored") continue;
    recipients.push(recipient);
    try {
      // The claim is marked stored by the append itself, in the same commit.
      if (accountId != null)
        await services.events.append(
          accountId,
          "incoming",
          event(),
          key ? { claim: key } : undefined,
        );
    } catch (error) {
      if (key) await releaseClaim(services.db, key).catch(() => {});
      throw error;
    }
    if (key && accountId == null) await markStoredGrouped(services.db, key);
  }
  await sweepNowAndThen(services);
  const accounts = accountsOf(addressed);
  // A replay to every addressed actor changes nothing (no second Accept, no second follower).
  if (addressed.length > 0 && recipients.length === 0) return { ok: true, accounts };
  await handlers.for(raw)?.(services, { raw, sender, recipients });
  return { ok: true, accounts };
}

/**
 * Claims the activity for one recipient. Two copies at once: the second waits for the first to
 * be stored (then it is a replay), or for the first's claim to go stale (its process died before
 * storing: then the second stores it), so a copy is neither shown twice nor lost. `taken`: an
 * append has just found the claim held.
 */
async function claim(services: Services, key: SeenKey, taken: boolean): Promise<Claim> {
  // Most copies are the first: their claim goes in with the others arriving now.
  if (!taken && (await insertClaimGrouped(services.db, key))) return "claimed";
  const giveUp = Date.now() + CLAIM_STALE_MS + 1000;
  for (;;) {
    const now = Date.now();
    const result = await claimSeen(services.db, key, now, now - CLAIM_STALE_MS);
    if (result !== "busy" || now > giveUp) return result === "busy" ? "claimed" : result;
    await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
  }
}

function accountsOf(addressed: Recipient[]): number[] {
  if (addressed.length === 1)
    return addressed[0]!.accountId === null ? [] : [addressed[0]!.accountId];
  const accounts = new Set<number>();
  for (const { accountId } of addressed) if (accountId !== null) accounts.add(accountId);
  return [...accounts];
}

async function sweepNowAndThen(services: Services) {
  const now = Date.now();
  if (now - (lastSweep.get(services) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(services, now);
  await sweepSeen(services.db, now - SEEN_FOR_MS);
}
