// Fedify wiring in one readable list. POSTs to inboxes do not come here: app.ts hands them to
// inbox.ts first (signature checks and the streams are ours, not Fedify's).

import { createFederation, type Federation, type KvStore } from "@fedify/fedify";
import type { Services } from "../services.ts";
import { registerActorDispatcher } from "./actor-dispatcher.ts";
import { registerCollections } from "./collections.ts";
import { registerNodeInfo } from "./nodeinfo.ts";

export function createCorralFederation(options: {
  kv: KvStore;
  allowPrivateAddress: boolean;
}): Federation<Services> {
  const federation = createFederation<Services>({
    kv: options.kv,
    allowPrivateAddress: options.allowPrivateAddress,
    userAgent: { software: "corral" },
  });
  registerActorDispatcher(federation); // actor documents, keys, WebFinger handles
  registerCollections(federation); // followers, following, outbox
  registerNodeInfo(federation); // NodeInfo 2.1
  return federation;
}
