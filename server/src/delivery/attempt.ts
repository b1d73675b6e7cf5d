import type { Services } from "../services.ts";
import { reportError } from "../events/report-error.ts";
import type { DeliveryRow } from "../db/deliveries.store.ts";
import type { Receive } from "../receive/accept-activity.ts";
import { isOurs } from "../activitypub/origins.ts";
import { loadSigner } from "../activitypub/local-keys.ts";
import { outgoingOf } from "../activitypub/outgoing.ts";
import { isObject } from "../activitypub/parse.ts";
import { signedPost, type PostResult } from "../activitypub/signing.ts";

// One attempt at one queued delivery. Every failed attempt is an error event at once, saying
// whether and when it will be tried again; the queue writes the outcome back later, in a group.

export type Outcome =
  | { kind: "delivered"; id: number }
  | { kind: "final"; id: number }
  | { kind: "retry"; id: number; attempt: number; nextAttemptAt: number };

export const MAX_ATTEMPTS = 10;
const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 3600_000;
// Answers that no retry will change.
const PERMANENT_STATUSES = new Set([400, 404, 405, 410, 413, 414, 415, 422]);

/** 30 s, 1 min, 2 min, … capped at 6 h, with ±10 % jitter so retries of one outage spread out. */
export function computeBackoff(attempt: number): number {
  const delay = Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
  return Math.round(delay * (0.9 + Math.random() * 0.2));
}

export async function attemptDelivery(
  services: Services,
  row: DeliveryRow,
  receive?: Receive,
): Promise<Outcome> {
  const attempt = row.attempt + 1;
  let result: PostResult;
  try {
    result = isOurs(services, row.inbox)
      ? await deliverHere(services, row, receive)
      : await deliverThere(services, row);
  } catch (error) {
    result = { ok: false, reason: `delivery to ${row.inbox} failed: ${(error as Error).message}` };
  }
  if (result.ok) return { kind: "delivered", id: row.id };

  const final =
    result.refused === true ||
    (result.status !== undefined && PERMANENT_STATUSES.has(result.status)) ||
    attempt >= MAX_ATTEMPTS;
  const nextAttemptAt = Date.now() + computeBackoff(attempt);
  if (row.account_id != null) {
    await reportError(
      services,
      row.account_id,
      row.routing_key,
      row.original,
      [
        result.refused
          ? `delivery to ${row.inbox} refused before sending`
          : `delivery to ${row.inbox} failed (attempt ${attempt})`,
        result.reason,
        final ? "giving up" : `next attempt at ${new Date(nextAttemptAt).toISOString()}`,
      ],
      {
        inbox: row.inbox,
        status: result.status ?? null,
        attempt,
        ...(final ? { final: true } : { nextAttemptAt: new Date(nextAttemptAt).toISOString() }),
      },
    );
  }
  return final
    ? { kind: "final", id: row.id }
    : { kind: "retry", id: row.id, attempt, nextAttemptAt };
}

async function deliverThere(services: Services, row: DeliveryRow): Promise<PostResult> {
  const signer = await loadSigner(services.db, row.actor_id);
  if (!signer)
    return { ok: false, refused: true, reason: `actor ${row.actor_id} has no signing key here` };
  return signedPost(row.inbox, row.body, signer, { outgoing: outgoingOf(services) });
}

/** An inbox on this server: no HTTP, no signature (we are the signer), the inbox's rules. */
async function deliverHere(
  services: Services,
  row: DeliveryRow,
  receive: Receive | undefined,
): Promise<PostResult> {
  if (!receive) return { ok: false, refused: true, reason: "this process receives no activities" };
  const raw: unknown = JSON.parse(row.body);
  if (!isObject(raw))
    return { ok: false, refused: true, reason: "the activity is not a JSON object" };
  const origin = new URL(row.inbox).origin;
  const actorId = row.inbox === `${origin}/inbox` ? null : row.inbox.replace(/\/inbox$/, "");
  // The sender is the actor whose delivery this is, as a signature would prove; the receiving
  // side refuses an activity that claims another actor (server.md §10).
  const received = await receive(services, raw, row.actor_id, actorId);
  if (!received.ok) return { ok: false, refused: true, status: 401, reason: received.reason };
  return { ok: true, status: 202 };
}
