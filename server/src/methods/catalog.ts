import { z } from "zod";
import * as bodies from "./schemas.ts";
import type { Services } from "../services.ts";
import type { MethodCall } from "./method-call.ts";

// Every method: what GET /fe/account/info lists as methodInformation, in cattle_grid's order
// (the exchange methods are cattle_grid's `cattle_grid.exchange`; ours carry the module name
// `corral`), the body it takes, and where it runs (loaded on first use, so the routes stay cheap).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each method narrows its params
type Run = (services: Services, call: MethodCall<any>) => Promise<void>;

interface Entry {
  routing_key: string;
  description: string;
  /** The whole body, actor included: checked before the method runs. */
  body: z.ZodType<Record<string, unknown>>;
  /** The body beside actor, published as JSON Schema. */
  fields: z.ZodType;
  /** A body that passes, without actor. */
  example: Record<string, unknown>;
  load: () => Promise<Run>;
}

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
/** How many of the account's actors send_message's example names. */
const EXAMPLE_RECIPIENTS = 3;

const note = {
  type: "Note",
  content: "Hello",
  to: [PUBLIC],
};

export const methods: Entry[] = [
  {
    routing_key: "send_message",
    description:
      "Delivers data exactly as given to every inbox its to, cc, bto, bcc and audience name (followers expanded), signed as actor; data.actor, when absent, is actor.",
    body: bodies.sendMessageBody,
    fields: bodies.sendMessageFields,
    // methodInformationFor() names the account's own actors as its recipients.
    example: sendMessageExample([]),
    load: async () => (await import("./send-message.ts")).sendMessage,
  },
  {
    routing_key: "update_actor",
    description:
      "Merges profile into the actor, sets autoFollow, runs actions (rename, property values, urls, identifiers); sends Update to followers when the public document changed.",
    body: bodies.updateActorBody,
    fields: bodies.updateActorFields,
    example: {
      profile: { summary: "Hello" },
      autoFollow: true,
      actions: [{ action: "update_property_value", key: "Website", value: "https://example.com" }],
    },
    load: async () => (await import("./update-actor.ts")).updateActor,
  },
  {
    routing_key: "delete_actor",
    description:
      "Sends Delete to the followers, removes the actor from the account and serves a Tombstone afterwards.",
    body: bodies.deleteActorBody,
    fields: bodies.deleteActorFields,
    example: {},
    load: async () => (await import("./delete-actor.ts")).deleteActor,
  },
  {
    routing_key: "publish_activity",
    description:
      "Assigns an id to data (an activity by actor; data.actor, when absent, is actor), stores it so it dereferences, and sends it like send_message.",
    body: bodies.publishActivityBody,
    fields: bodies.publishActivityFields,
    example: { data: { type: "Create", object: note, to: note.to } },
    load: async () => (await import("./publish.ts")).publishActivity,
  },
  {
    routing_key: "publish_object",
    description:
      "Assigns an id to data (an object by actor; data.attributedTo, when absent, is actor), stores it, wraps it in a Create by actor and sends it like send_message.",
    body: bodies.publishObjectBody,
    fields: bodies.publishObjectFields,
    example: { data: note },
    load: async () => (await import("./publish.ts")).publishObject,
  },
];

/**
 * send_message's example: a Note to the account's own actors (an example cannot know any other
 * inbox that answers), so trying it as one of them delivers to the others. The acting actor is
 * never its own recipient (ActivityPub), so an account with one actor delivers nothing yet.
 */
function sendMessageExample(ownActors: readonly string[]): Record<string, unknown> {
  const to = [...ownActors.slice(0, EXAMPLE_RECIPIENTS), PUBLIC];
  return {
    data: {
      "@context": "https://www.w3.org/ns/activitystreams",
      type: "Create",
      to,
      object: { type: "Note", content: "Hello from Corral", to },
    },
  };
}

const schemas = new Map(
  methods.map((entry) => [
    entry.routing_key,
    z.toJSONSchema(entry.fields) as Record<string, unknown>,
  ]),
);

/**
 * GET /fe/account/info's methodInformation for an account whose actors are `ownActors` (oldest
 * first): each example, with only `actor` added beside it, passes the method's check.
 */
export function methodInformationFor(ownActors: readonly string[]) {
  return methods.map((entry) => ({
    routing_key: entry.routing_key,
    module: "corral",
    description: entry.description,
    replies: false,
    schema: schemas.get(entry.routing_key)!,
    example: entry.routing_key === "send_message" ? sendMessageExample(ownActors) : entry.example,
  }));
}

export function findMethod(name: string): Entry | undefined {
  return methods.find((entry) => entry.routing_key === name);
}
