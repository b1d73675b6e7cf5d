// "Open in Perform" (workbench "Streams one can scan"): what Perform's form is filled with for a
// message. A message a call caused (it carries `trigger_id`) opens that call again, method and
// data; any other opens `send_message` with the message's activity as `data`, its `id` removed
// (a message sent as given needs a new one), ready to edit and send, as the actor acting then:
// its `actor`, and its object's `attributedTo` where the object is the sender's, name that actor
// (an activity signed by one actor that claims another is refused by every receiver).
import { readActivity } from "../../lib/streams/stream-activity-types.ts";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";

type Json = Record<string, unknown>;

/**
 * A prefilled Perform form: the method, its data (without `actor`), and who acts, if known.
 * `activity` is set when data.data is an activity to be sent again as the actor acting
 * (asActor), not a call of ours opened as it was made.
 */
export type PerformPrefill = { method: string; data: Json; actor: string | null; activity?: Json };

export type PerformSource =
  { kind: "call"; triggerId: string } | { kind: "prefill"; prefill: PerformPrefill };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(value: unknown, key: string): string | null {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === "string" && field !== "" ? field : null;
}

export function performSourceOf(message: StreamMessage): PerformSource {
  const triggerId = stringField(message.data, "trigger_id");
  if (triggerId) return { kind: "call", triggerId };
  return { kind: "prefill", prefill: sendMessagePrefill(message) };
}

/**
 * `send_message` with the activity as it came (`data.raw`, not muck_out's normalised view, which
 * has the object as a bare id), else the parsed activity, else the event's own data, as the
 * account actor the event is about.
 */
export function sendMessagePrefill(message: StreamMessage): PerformPrefill {
  const { data } = message;
  const inner = isObject(data) && isObject(data.data) ? data.data : null;
  const activity =
    (inner && isObject(inner.raw) ? inner.raw : null) ?? readActivity(data) ?? inner ?? {};
  const { id: _id, ...withoutId } = activity;
  return {
    method: "send_message",
    data: { data: withoutId },
    actor: stringField(data, "actor"),
    activity: withoutId,
  };
}

/** Activities whose object is the actor's own work: its author is whoever sends the activity. */
const AUTHORING = new Set(["Create", "Update"]);

function idOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  return stringField(value, "id");
}

/**
 * The activity as `actor` sends it: `actor` names them, and so does the object's `attributedTo`
 * when the object is embedded and was the sender's (a Create or Update, or attributed to the
 * sender). Someone else's object (a Like of carol's note) keeps its author.
 */
export function asActor(activity: Json, actor: string): Json {
  const sender = idOf(activity.actor);
  const object = activity.object;
  const authored =
    isObject(object) &&
    ((typeof activity.type === "string" && AUTHORING.has(activity.type)) ||
      (sender !== null && idOf(object.attributedTo) === sender));
  return {
    ...activity,
    actor,
    ...(authored ? { object: { ...object, attributedTo: actor } } : {}),
  };
}

/** The form's data for the actor acting: an activity prefill sent as them, a call as it was. */
export function dataFor(prefill: PerformPrefill, acting: string | null): Json {
  if (!prefill.activity || acting === null) return prefill.data;
  return { ...prefill.data, data: asActor(prefill.activity, acting) };
}

/** A recorded call, without its `actor` (Perform adds the current actor's). */
export function callPrefill(method: string, body: Json, actor: string | null): PerformPrefill {
  const { actor: bodyActor, ...data } = body;
  return { method, data, actor: actor ?? (typeof bodyActor === "string" ? bodyActor : null) };
}
