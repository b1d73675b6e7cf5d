// The one line above each message's tree: when it arrived, what it is, who sent it and, for
// outgoing messages, how its deliveries went when the message says so.
import { formatHandle } from "../../lib/actor-handles.ts";
import { fateOfDelivery } from "../../lib/delivery-fate.ts";
import { formatMoment } from "../../lib/format-moment.ts";
import {
  readActivity,
  readEmbeddedObject,
  typeName,
} from "../../lib/streams/stream-activity-types.ts";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import { describeError } from "./error-event.ts";

/** Actor id → `@preferredUsername@host`, for actors whose document this browser has seen. */
export type KnownHandles = Readonly<Record<string, string>>;

export type MessageSummary = {
  time: string;
  type: string;
  who: string | null;
  /** The embedded object's type and the start of its text: `Note "Hello Bob, this is…"`. */
  object: string | null;
  delivery: string | null;
  /** An error event's target host and reason: `no-such-host.invalid: the name does not resolve`. */
  problem: string | null;
  triggerId: string | null;
};

type Json = Record<string, unknown>;

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Json)[key] : undefined;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function readType(message: StreamMessage): string {
  return (
    message.activityType ??
    text(field(message.data, "routing_key")) ??
    text(field(field(message.data, "data"), "routing_key")) ??
    "—"
  );
}

/**
 * `@preferredUsername@host` for an actor: the server's `actor_info` about it, the document when
 * the event embeds it, a handle learned earlier, or the name at the end of a well-known path;
 * else the id without its scheme. Never a display name: two actors may share one.
 */
export function shortenActor(actor: unknown, known: KnownHandles, info?: unknown): string | null {
  const id = text(actor) ?? text(field(actor, "id"));
  if (!id) return null;
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return id;
  }
  const infoHandle = text(field(info, "id")) === id ? text(field(info, "handle")) : null;
  const stated = infoHandle ?? text(field(actor, "preferredUsername"));
  const handle = (stated && formatHandle(stated, id)) ?? known[id];
  if (handle) return handle;
  // Mastodon, Misskey, Pleroma and GoToSocial paths end in the name.
  const name =
    /^\/(?:users|u|@|actors|ap\/users)\/([\w.-]+)$/.exec(url.pathname)?.[1] ??
    /^\/@([\w.-]+)$/.exec(url.pathname)?.[1];
  return name ? `@${name}@${url.host}` : `${url.host}${url.pathname}`;
}

/** The server's `actor_info` about the sender: beside the event's `actor`, or in its `data`. */
function readActorInfo(event: unknown): unknown {
  return field(event, "actor_info") ?? field(field(event, "data"), "actor_info");
}

const EXCERPT_CHARS = 80;

/** The object's type and the first 80 characters of its text, when the event carries it. */
function describeObject(message: StreamMessage): string | null {
  const object = readEmbeddedObject(message.data);
  if (!object) return null;
  const type = typeName(object.type);
  const body =
    text(object.contentPlain) ??
    text(object.content)?.replace(/<[^>]*>/g, " ") ??
    text(object.summary) ??
    text(object.name);
  const plain = body?.replace(/\s+/g, " ").trim() ?? "";
  const excerpt =
    plain === ""
      ? null
      : `"${plain.length > EXCERPT_CHARS ? `${plain.slice(0, EXCERPT_CHARS)}…` : plain}"`;
  return [type, excerpt].filter((part) => part !== null).join(" ") || null;
}

/**
 * An outgoing message's deliveries in the console's words for a fate (lib/delivery-fate.ts):
 * "retrying", "queued", "stopped", "failed", "not sent" or "delivered 2/3", from a `deliveries`
 * list (the message's own, or its trigger record's).
 */
export function readDeliveryState(data: unknown): string | null {
  const deliveries = field(data, "deliveries");
  if (!Array.isArray(deliveries) || deliveries.length === 0) return null;
  const fates = deliveries.map((delivery) => fateOfDelivery(String(field(delivery, "state"))));
  if (fates.includes("retrying")) return "retrying";
  if (fates.includes("queued")) return "queued";
  // Held by "Stop delivery": neither on its way nor given up.
  if (fates.includes("stopped")) return "stopped";
  if (fates.includes("failed")) return "failed";
  if (fates.includes("not sent")) return "not sent";
  const delivered = fates.filter((fate) => fate === "delivered").length;
  return `delivered ${delivered}/${fates.length}`;
}

export function summarise(message: StreamMessage, known: KnownHandles): MessageSummary {
  const { data } = message;
  return {
    time: message.receivedAt === null ? "--:--:--" : formatMoment(message.receivedAt),
    type: readType(message),
    who: shortenActor(readActivity(data)?.actor, known, readActorInfo(data)),
    object: describeObject(message),
    delivery: message.stream === "outgoing" ? readDeliveryState(data) : null,
    problem: message.stream === "error" ? describeError(data) : null,
    triggerId: text(field(data, "trigger_id")),
  };
}
