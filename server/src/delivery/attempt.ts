import type { Services } from "../services.ts";
import type { DeliveryRow } from "../db/deliveries.store.ts";
import { isOurs } from "../activitypub/origins.ts";
import { loadSigner } from "../activitypub/local-keys.ts";
import { outgoingOf } from "../activitypub/outgoing.ts";
import { isObject } from "../activitypub/parse.ts";
import { signedPost, type PostResult } from "../activitypub/signing.ts";
import { preparedBodyOf } from "./prepared-bodies.ts";

// One attempt at one queued delivery: the POST (or, for an inbox on this server, the receiving)
// and nothing else. What it comes to (delivered, retried, given up) is outcome.ts's to decide.

/** Receiving an activity, as the delivery queue is handed it for inboxes on this server. */
export type Receive = (
  services: Services,
  raw: Record<string, unknown>,
  sender: string,
  actorId: string | null,
) => Promise<Received>;

/**
 * Taken (a replay is taken too, and adds nothing), with the accounts whose actors it was for; or
 * refused with the reason.
 */
export type Received = { ok: true; accounts?: number[] } | { ok: false; reason: string };

export async function attemptDelivery(
  services: Services,
  row: DeliveryRow,
  receive?: Receive,
): Promise<PostResult> {
  try {
    return isOurs(services, row.inbox)
      ? await deliverHere(services, row, receive)
      : await deliverThere(services, row);
  } catch (error) {
    return { ok: false, reason: `delivery to ${row.inbox} failed: ${(error as Error).message}` };
  }
}

async function deliverThere(services: Services, row: DeliveryRow): Promise<PostResult> {
  const signer = await loadSigner(services.db, row.actor_id);
  if (!signer)
    return { ok: false, refused: true, reason: `actor ${row.actor_id} has no signing key here` };
  const body = await preparedBodyOf(services.db, row);
  if (!body) return { ok: false, refused: true, reason: `the body of delivery ${row.id} is gone` };
  return signedPost(row.inbox, body, signer, { outgoing: outgoingOf(services) });
}

/** An inbox on this server: no HTTP, no signature (we are the signer), the inbox's rules. */
async function deliverHere(
  services: Services,
  row: DeliveryRow,
  receive: Receive | undefined,
): Promise<PostResult> {
  if (!receive) return { ok: false, refused: true, reason: "this process receives no activities" };
  const body = await preparedBodyOf(services.db, row);
  if (!body) return { ok: false, refused: true, reason: `the body of delivery ${row.id} is gone` };
  const raw: unknown = JSON.parse(body.text);
  if (!isObject(raw))
    return { ok: false, refused: true, reason: "the activity is not a JSON object" };
  const origin = new URL(row.inbox).origin;
  const actorId = row.inbox === `${origin}/inbox` ? null : row.inbox.replace(/\/inbox$/, "");
  // The sender is the actor whose delivery this is, as a signature would prove; the receiving
  // side refuses an activity that claims another actor (docs/server-guide.md#untrusted-input).
  const received = await receive(services, raw, row.actor_id, actorId);
  if (!received.ok) return { ok: false, refused: true, status: 401, reason: received.reason };
  return { ok: true, status: 202 };
}
