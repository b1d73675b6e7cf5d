import { z } from "zod";
import { idOf, idsOf } from "../activitypub/parse.ts";

// Each method's body, declared once: the /fe trigger edge answers 422 from these before
// anything runs, execute() checks them for callers inside the process (demo, tests), and
// GET /fe/account/info publishes them as JSON Schema. Messages are what the operator reads.

const actor = z.string({ error: '"actor" must be the id of one of your actors' });
const jsonObject = (name: string) =>
  z.record(z.string(), z.unknown(), { error: `"${name}" must be a JSON object` });

/** Bodies a method does not know: only the actor is checked (cattle_grid's PerformRequest). */
export const anyMethodBody = z.looseObject({ actor: z.string() });

/** One request cannot grow storage without bound (docs/server-guide.md#untrusted-input). */
export const MAX_RECIPIENTS = 10_000;
const AUDIENCE_KEYS = ["to", "cc", "bto", "bcc", "audience"] as const;

function limitRecipients(data: Record<string, unknown>, ctx: z.RefinementCtx) {
  const named = new Set(AUDIENCE_KEYS.flatMap((key) => idsOf(data[key])));
  if (named.size > MAX_RECIPIENTS)
    ctx.addIssue({
      code: "custom",
      path: ["to"],
      message: `"data" names ${named.size} recipients; at most ${MAX_RECIPIENTS} are allowed`,
    });
}

/** What a method takes beside `actor` (published as its JSON Schema). */
export const sendMessageFields = z.looseObject({
  data: jsonObject("data").superRefine(limitRecipients),
});
export const sendMessageBody = z.looseObject({ actor, ...sendMessageFields.shape });

const newData = jsonObject("data")
  .superRefine((data, ctx) => {
    if (data.id !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["id"],
        message: '"data" must not have an id; the server assigns it',
      });
    if (typeof data.type !== "string")
      ctx.addIssue({ code: "custom", path: ["type"], message: '"data.type" is missing' });
    limitRecipients(data, ctx);
  })
  // What the refinement above checks, said in the published JSON Schema too (zod leaves
  // refinements out of it), so that a console checks it before sending (docs/perform.md).
  .meta({ required: ["type"], properties: { type: { type: "string" }, id: false } });

export const publishObjectFields = z.looseObject({ data: newData });
export const publishObjectBody = z
  .looseObject({ actor, ...publishObjectFields.shape })
  .superRefine((body, ctx) => {
    // Absent, the server fills it in (publish.ts). Someone else's would make the Create speak
    // for another author; cattle_grid's simple_storage refuses it too.
    const attributedTo = body.data.attributedTo;
    if (attributedTo === undefined) return;
    const ids = idsOf(attributedTo);
    if (ids.length !== 1 || ids[0] !== body.actor)
      ctx.addIssue({
        code: "custom",
        path: ["data", "attributedTo"],
        message: `"data.attributedTo" must be ${body.actor}`,
      });
  });

export const publishActivityFields = publishObjectFields;
export const publishActivityBody = z
  .looseObject({ actor, ...publishObjectFields.shape })
  .superRefine((body, ctx) => {
    // Absent, the server fills it in (publish.ts): an example cannot know who acts.
    if (body.data.actor !== undefined && idOf(body.data.actor) !== body.actor)
      ctx.addIssue({
        code: "custom",
        path: ["data", "actor"],
        message: `"data.actor" must be ${body.actor}`,
      });
  });

export const deleteActorFields = z.looseObject({});
export const deleteActorBody = z.looseObject({ actor });

// update_actor's actions, and the string fields each one needs.
const actionFields: Record<string, string[]> = {
  rename: ["name"],
  update_property_value: ["key", "value"],
  remove_property_value: ["key"],
  add_url: ["url"],
  remove_url: ["url"],
  create_identifier: ["identifier"],
  add_identifier: ["identifier"],
  update_identifier: ["identifier"],
  remove_identifier: ["identifier"],
};

const action = z.unknown().superRefine((value, ctx) => {
  const fields = value as Record<string, unknown> | null;
  const kind = typeof fields === "object" && fields !== null ? fields.action : undefined;
  const needs = typeof kind === "string" ? actionFields[kind] : undefined;
  if (!needs) {
    ctx.addIssue({
      code: "custom",
      path: ["action"],
      message: `unknown action ${JSON.stringify(kind ?? null)}`,
    });
    return;
  }
  // Only the first missing field: the operator fixes one thing at a time, as before.
  const missing = needs.find((key) => {
    const field = fields![key];
    // Identifiers are trimmed before use; the other fields are taken as given.
    return typeof field !== "string" || (key === "identifier" ? field.trim() : field) === "";
  });
  if (missing)
    ctx.addIssue({
      code: "custom",
      path: [missing],
      message: `action ${kind} needs "${missing}" as a string`,
    });
});

export const updateActorFields = z.looseObject({
  profile: jsonObject("profile").optional(),
  autoFollow: z.boolean({ error: '"autoFollow" must be true or false' }).optional(),
  actions: z.array(action, { error: '"actions" must be a list' }).optional(),
});
export const updateActorBody = z.looseObject({ actor, ...updateActorFields.shape });
