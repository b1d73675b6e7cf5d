// The one line above each message's tree: when it arrived, what it is, who sent it and, for
// outgoing messages, how its deliveries went when the message says so.
import type { StreamMessage } from "../../lib/stream-store.ts";

export type KnownActor = { id: string; name: string };

export type MessageSummary = {
  time: string;
  type: string;
  who: string | null;
  delivery: string | null;
  triggerId: string | null;
};

type Json = Record<string, unknown>;

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Json)[key] : undefined;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Local HH:MM:SS. */
export function formatClock(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function readType(message: StreamMessage): string {
  return (
    message.activityType ??
    text(field(message.data, "routing_key")) ??
    text(field(field(message.data, "data"), "routing_key")) ??
    "—"
  );
}

/** `@name@host` for an actor whose name is known, else the id without its scheme. */
export function shortenActor(actor: unknown, known: readonly KnownActor[]): string | null {
  const id = text(actor) ?? text(field(actor, "id"));
  if (!id) return null;
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return id;
  }
  const name =
    text(field(actor, "preferredUsername")) ??
    known.find((candidate) => candidate.id === id)?.name ??
    // Mastodon, Misskey, Pleroma, GoToSocial and Corral's own paths end in the name.
    /^\/(?:users|u|@|actors|ap\/users)\/([\w.-]+)$/.exec(url.pathname)?.[1] ??
    /^\/@([\w.-]+)$/.exec(url.pathname)?.[1];
  return name ? `@${name}@${url.host}` : `${url.host}${url.pathname}`;
}

/**
 * "delivered 2/3", "retrying", "stopped" or "failed", from a `deliveries` list (the message's own,
 * or its trigger record's).
 */
export function readDeliveryState(data: unknown): string | null {
  const deliveries = field(data, "deliveries");
  if (!Array.isArray(deliveries) || deliveries.length === 0) return null;
  const states = deliveries.map((delivery) => field(delivery, "state"));
  if (states.includes("retrying") || states.includes("queued")) return "retrying";
  // Held by "Stop delivery": neither on its way nor given up.
  if (states.includes("stopped")) return "stopped";
  const delivered = states.filter((state) => state === "delivered").length;
  if (delivered < states.length && states.some((s) => s === "failed" || s === "refused"))
    return "failed";
  return `delivered ${delivered}/${states.length}`;
}

export function summarise(message: StreamMessage, known: readonly KnownActor[]): MessageSummary {
  const { data } = message;
  const activity = field(field(data, "data"), "parsed");
  return {
    time: message.receivedAt === null ? "--:--:--" : formatClock(message.receivedAt),
    type: readType(message),
    who: shortenActor(field(field(activity, "activity"), "actor"), known),
    delivery: message.stream === "outgoing" ? readDeliveryState(data) : null,
    triggerId: text(field(data, "trigger_id")),
  };
}
