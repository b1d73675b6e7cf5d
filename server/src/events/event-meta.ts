// What history filters match an event by (docs/server-guide.md#history), read from the event as it is
// appended so that a query reads no JSON: the activity's type; the actors it names (ours and the
// activity's); the hosts it involves (the activity's actor and its addressees, or for an error
// the inbox it failed at). Stored beside the event (db/events.store.ts, migration 7).

import { idOf, idsOf, isObject } from "../activitypub/parse.ts";
import type { AppendedEvent } from "../db/events.store.ts";

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);

// The same few actors and inboxes come again and again: each URL is parsed once.
const knownHosts = new Map<string, readonly string[]>();
const MAX_KNOWN_HOSTS = 10_000;

/** The host of a URL, and its hostname when that differs (a port); none for what is no URL. */
function hostsOf(url: string): readonly string[] {
  let found = knownHosts.get(url);
  if (found === undefined) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    found = [];
    if (parsed?.host) found = [parsed.host.toLowerCase()];
    if (parsed && parsed.host !== parsed.hostname)
      found = [...found, parsed.hostname.toLowerCase()];
    if (knownHosts.size >= MAX_KNOWN_HOSTS) knownHosts.delete(knownHosts.keys().next().value!);
    knownHosts.set(url, found);
  }
  return found;
}

/** The event's JSON with its filter columns. */
export function withMeta(json: string, event: object): AppendedEvent {
  const e = event as Record<string, unknown>;
  const actors = new Set<string>();
  const hosts = new Set<string>();
  const addHost = (url: unknown) => {
    if (typeof url !== "string" || PUBLIC.has(url)) return;
    for (const host of hostsOf(url)) hosts.add(host);
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
