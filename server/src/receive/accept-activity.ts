import { findLocalActor } from "../activitypub/local-keys.ts";
import { parseActivityPub } from "../activitypub/parse.ts";
import type { Services } from "../services.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import { findAddressedActors } from "./recipients.ts";

/** Receiving an activity, as the delivery queue is handed it for inboxes on this server. */
export type Receive = (
  services: Services,
  raw: Record<string, unknown>,
  sender: string,
  actorId: string | null,
) => Promise<void>;

/**
 * What happens to an activity whose signature checked out (or that one of our own actors sent
 * to another on this server): an incoming event per addressed actor, then its type's handler.
 */
export async function acceptActivity(
  services: Services,
  handlers: InboxHandlers,
  raw: Record<string, unknown>,
  sender: string,
  actorId: string | null,
): Promise<void> {
  const parsed = parseActivityPub(raw);
  const recipients =
    actorId !== null ? [actorId] : await findAddressedActors(services, raw, sender);
  for (const recipient of recipients) {
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
  await handlers.for(raw)?.(services, { raw, sender, recipients });
}
