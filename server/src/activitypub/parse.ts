// A normalised view of an ActivityPub document in the style of cattle_grid's muck_out: ids as
// strings, audiences as arrays, the embedded object pulled out. Plain JSON work only: JSON-LD
// expansion is far too slow for the inbox, and every document we meet uses the compact form.

type Json = Record<string, unknown>;

export interface Parsed {
  activity?: Json;
  object?: Json;
  actor?: Json;
  collection?: Json;
}

const ACTOR_TYPES = new Set(["Person", "Service", "Application", "Group", "Organization"]);
const COLLECTION_TYPES = new Set([
  "Collection",
  "OrderedCollection",
  "CollectionPage",
  "OrderedCollectionPage",
]);
// prettier-ignore
const ACTIVITY_TYPES = new Set([
  "Accept", "Add", "Announce", "Arrive", "Block", "Create", "Delete", "Dislike", "Flag", "Follow",
  "Ignore", "Invite", "Join", "Leave", "Like", "Listen", "Move", "Offer", "Question", "Read",
  "Reject", "Remove", "TentativeAccept", "TentativeReject", "Travel", "Undo", "Update", "View",
  "EmojiReact",
]);

/** Turns a received or looked-up document into muck_out's `parsed` shape; `{}` for non-objects. */
export function parseActivityPub(raw: unknown): Parsed {
  if (!isObject(raw)) return {};
  const type = firstType(raw);
  if (type && ACTOR_TYPES.has(type)) return { actor: normaliseActor(raw) };
  if (type && COLLECTION_TYPES.has(type)) return { collection: normaliseCollection(raw) };
  if (isActivity(raw, type)) {
    const parsed: Parsed = { activity: normaliseActivity(raw) };
    if (isObject(raw.object)) {
      const inner = parseActivityPub(raw.object);
      // An embedded activity (Undo of a Follow) is the object; an embedded actor stays an actor.
      parsed.object = inner.activity ?? inner.object ?? inner.actor ?? inner.collection;
    }
    return parsed;
  }
  return { object: normaliseObject(raw) };
}

/** The id of a reference that may be a string, an object with `id`, or a Link with `href`. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (isObject(value)) {
    if (typeof value.id === "string") return value.id;
    if (typeof value.href === "string") return value.href;
  }
  return undefined;
}

/** Every id a property names, whatever its shape (absent, one, or an array). */
export function idsOf(value: unknown): string[] {
  if (value == null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map(idOf).filter((id): id is string => id !== undefined);
}

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstType(raw: Json): string | undefined {
  const type = Array.isArray(raw.type) ? raw.type[0] : raw.type;
  return typeof type === "string" ? type : undefined;
}

function isActivity(raw: Json, type: string | undefined): boolean {
  if (type && ACTIVITY_TYPES.has(type)) return true;
  // Unknown extension types count as activities when they carry an actor.
  return raw.actor !== undefined && (raw.object !== undefined || raw.target !== undefined);
}

function normaliseActivity(raw: Json): Json {
  const out: Json = {
    type: firstType(raw),
    id: idOf(raw.id) ?? null,
    actor: idOf(raw.actor) ?? null,
  };
  const objectId = idOf(raw.object);
  if (objectId !== undefined) out.object = objectId;
  else if (raw.object !== undefined) out.object = raw.object;
  Object.assign(out, audiences(raw));
  copyIds(raw, out, ["target", "origin", "inReplyTo"]);
  copyScalars(raw, out, ["published", "content", "summary", "name"]);
  return out;
}

function normaliseObject(raw: Json): Json {
  const out: Json = { type: firstType(raw) ?? null, id: idOf(raw.id) ?? null };
  Object.assign(out, audiences(raw));
  copyIds(raw, out, ["attributedTo", "inReplyTo", "context", "url"]);
  copyScalars(raw, out, [
    "name",
    "summary",
    "content",
    "contentMap",
    "published",
    "updated",
    "sensitive",
    "mediaType",
  ]);
  for (const key of ["tag", "attachment"]) {
    if (raw[key] !== undefined) out[key] = Array.isArray(raw[key]) ? raw[key] : [raw[key]];
  }
  return out;
}

function normaliseActor(raw: Json): Json {
  const out: Json = { type: firstType(raw), id: idOf(raw.id) ?? null };
  copyScalars(raw, out, [
    "preferredUsername",
    "name",
    "summary",
    "icon",
    "image",
    "manuallyApprovesFollowers",
    "published",
  ]);
  copyIds(raw, out, ["inbox", "outbox", "followers", "following", "url"]);
  const endpoints = raw.endpoints;
  if (isObject(endpoints) && typeof endpoints.sharedInbox === "string")
    out.sharedInbox = endpoints.sharedInbox;
  if (isObject(raw.publicKey)) {
    out.publicKey = {
      id: idOf(raw.publicKey.id),
      owner: idOf(raw.publicKey.owner),
      publicKeyPem: raw.publicKey.publicKeyPem,
    };
  }
  if (raw.attachment !== undefined)
    out.attachment = Array.isArray(raw.attachment) ? raw.attachment : [raw.attachment];
  if (raw.alsoKnownAs !== undefined) out.alsoKnownAs = idsOf(raw.alsoKnownAs);
  return out;
}

function normaliseCollection(raw: Json): Json {
  const out: Json = { type: firstType(raw), id: idOf(raw.id) ?? null };
  copyScalars(raw, out, ["totalItems"]);
  copyIds(raw, out, ["first", "last", "next", "prev", "partOf"]);
  const items = raw.orderedItems ?? raw.items;
  if (items !== undefined) out.items = Array.isArray(items) ? items : [items];
  return out;
}

function audiences(raw: Json): Json {
  const out: Json = { to: idsOf(raw.to), cc: idsOf(raw.cc) };
  if (raw.audience !== undefined) out.audience = idsOf(raw.audience);
  return out;
}

function copyIds(raw: Json, out: Json, keys: string[]) {
  for (const key of keys) {
    if (raw[key] === undefined) continue;
    const id = idOf(raw[key]);
    out[key] = id ?? (Array.isArray(raw[key]) ? idsOf(raw[key]) : raw[key]);
  }
}

function copyScalars(raw: Json, out: Json, keys: string[]) {
  for (const key of keys) if (raw[key] !== undefined) out[key] = raw[key];
}
