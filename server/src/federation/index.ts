// Fedify wiring, and what our inboxes do, in one readable list. POSTs to inboxes do not go
// through Fedify: app.ts hands them to inbox.ts (signature checks and the streams are ours).

import { createFederation, type Federation, type KvStore } from "@fedify/fedify";
import { createDocumentLoader } from "../activitypub/document-loader.ts";
import type { Outgoing } from "../activitypub/outgoing-types.ts";
import {
  onAccepted,
  onDeleted,
  onFollowed,
  onRejected,
  onUndone,
} from "../receive/follow-handlers.ts";
import { acceptActivity, type Receive } from "../receive/accept-activity.ts";
import { InboxHandlers } from "../receive/inbox-handlers.ts";
import type { Services } from "../services.ts";
import { registerActorDispatcher } from "./actor-dispatcher.ts";
import { registerCollections } from "./collections.ts";
import { registerNodeInfo } from "./nodeinfo.ts";

export function createCorralFederation(options: {
  kv: KvStore;
  outgoing: Outgoing;
}): Federation<Services> {
  // Fedify's own fetches (JSON-LD contexts of stored activities, keys) go out our way too, with
  // our User-Agent (Fedify refuses its userAgent option beside loader factories).
  const loader = createDocumentLoader(options.outgoing);
  const federation = createFederation<Services>({
    kv: options.kv,
    documentLoaderFactory: () => loader,
    contextLoaderFactory: () => loader,
  });
  registerActorDispatcher(federation); // actor documents, keys, WebFinger handles
  registerCollections(federation); // followers, following, outbox
  registerNodeInfo(federation); // NodeInfo 2.1
  return federation;
}

// Every activity reaches the incoming stream of the actors it is for; these types do more.
export const inboxHandlers = new InboxHandlers()
  .on("Follow", onFollowed)
  .on("Undo", onUndone)
  .on("Accept", onAccepted)
  .on("Reject", onRejected)
  .on("Delete", onDeleted);

/** An activity for our inboxes, from the network (inbox.ts) or from our own queue. */
export const receiveActivity: Receive = (services, raw, sender, actorId) =>
  acceptActivity(services, inboxHandlers, raw, sender, actorId);
