// What history filters match an event by (docs/server-guide.md#history), read from the event as it is
// appended so that a query reads no JSON: the activity's type; the actors it names (ours and the
// activity's); the hosts it involves (the activity's actor and its addressees, or for an error
// the inbox it failed at). Stored beside the event (db/events.store.ts, migration 7).

import { idOf, idsOf, isObject } from "../activitypub/parse.ts";
import type { AppendedEvent } from "../db/events.store.ts";

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);

/** The event's JSON with its filter columns. */
export function withMeta(json: string, event: object): AppendedEvent {
  const e = event as Record<string, unknown>;
  const actors = new Set<string>();
  const hosts = new Set<string>();
  const addHost = (url: unknown) => {
    if (typeof url !== "string" || PUBLIC.has(url)) return;
    try {
      const parsed = new URL(url);
      if (parsed.host) hosts.add(parsed.host.toLowerCase());
      if (parsed.host !== parsed.hostname) hosts.add(parsed.hostname.toLowerCase());
    } catch {
      // not a URL: nothing to match
    }
  };
  if (typeof e.actor === "string") actors.add(e.actor);
  let kind: string | null = null;
  const data = isObject(e.data) ? e.data : undefined;
  const raw = data && isObject(data.raw) ? data.raw : undefined;
  if (raw) {
    const type = Array.isArray(raw.type) ? raw.type[0] : raw.type;
    if (typeof type === "string") kind = type;
    const actor = idOf(raw.actor);
    if (actor !== undefined) {
      actors.add(actor);
      addHost(actor);
    }
    for (const key of ["to", "cc", "bto", "bcc", "audience"]) idsOf(raw[key]).forEach(addHost);
  }
  addHost(e.inbox);
  const spaced = (values: Set<string>) =>
    values.size === 0 ? null : ` ${[...values].map((v) => v.replace(/\s/g, "")).join(" ")} `;
  return { json, kind, actors: spaced(actors), hosts: spaced(hosts) };
}
