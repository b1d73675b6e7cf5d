import type { MethodInformationModel } from "../fe/wire.ts";

// What GET /fe/account/info lists as methodInformation, in cattle_grid's order. The exchange
// methods are cattle_grid's `cattle_grid.exchange`; ours carry the module name `corral`.

export const methodInformation: MethodInformationModel[] = [
  {
    routing_key: "send_message",
    module: "corral",
    description:
      "Delivers data exactly as given to every inbox its to, cc, bto, bcc and audience name (followers expanded), signed as actor.",
    replies: false,
  },
  {
    routing_key: "update_actor",
    module: "corral",
    description:
      "Merges profile into the actor, sets autoFollow, runs actions (rename, property values, urls, identifiers); sends Update to followers when the public document changed.",
    replies: false,
  },
  {
    routing_key: "delete_actor",
    module: "corral",
    description:
      "Sends Delete to the followers, removes the actor from the account and serves a Tombstone afterwards.",
    replies: false,
  },
  {
    routing_key: "publish_activity",
    module: "corral",
    description:
      "Assigns an id to data (an activity by actor), stores it so it dereferences, and sends it like send_message.",
    replies: false,
  },
  {
    routing_key: "publish_object",
    module: "corral",
    description:
      "Assigns an id to data (an object), stores it, wraps it in a Create by actor and sends it like send_message.",
    replies: false,
  },
];
