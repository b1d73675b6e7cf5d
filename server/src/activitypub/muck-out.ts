// `parsed` as muck_out 0.3.16 makes it (cattle_grid's muck_out extension): every normaliser is
// tried on the document and each that succeeds gives one key, `activity`, `object`, `actor`,
// `collection`, plus `embedded_object` (an activity's object, its place in `activity.object`
// taken by its id) and `embedded_actor` (an Update of the actor itself). Keys whose value is null
// are left out, empty lists stay, `@context` is dropped, as the extension dumps it. What a
// normaliser refuses (no id, no actor, an activity addressed to no one and no receiving actor,
// an object without content, summary or name) is simply absent, so an activity without ids is
// `{}`. Rules and names follow muck_out's source; the fixtures in muck-out.test.ts are its output.

import { cleanHtml, plainText } from "./clean-html.ts";

type Json = Record<string, unknown>;
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const publicNames = new Set(["Public", "as:Public", PUBLIC]);

// A normaliser's refusal is ordinary: each document is refused by most of the four normalisers
// tried on it (a Create is no actor, no collection). So the refusal is a plain object, not an
// Error: capturing a stack trace for each was half of normalizeData's CPU in the inbox profile
// (bench/README.md, issue 34).
class Refused {
  readonly why: string;
  constructor(why: string) {
    this.why = why;
  }
}
const refuse = (why: string): never => {
  throw new Refused(why);
};
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** list_from_value + transform_to_list: a list, a value as a list of one, else []. */
function toList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return typeof value === "string" || isObject(value) ? [value] : [];
}
/** bovine's id_for_object, after muck_out's "first of a list". */
function idField(value: unknown): string | null {
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    value = value[0];
  }
  if (value == null) return null;
  if (typeof value === "string") return value;
  if (isObject(value)) {
    const id = value.id;
    if (id === undefined || id === null) return null;
    return typeof id === "string" ? id : refuse("id is not a string");
  }
  return refuse("not an id");
}
function uriList(value: unknown): string[] {
  return toList(value)
    .map((v) => (typeof v === "string" ? v : isObject(v) && typeof v.id === "string" ? v.id : null))
    .filter((v): v is string => !!v)
    .map((v) => (publicNames.has(v) ? PUBLIC : v));
}
function html(value: unknown): string | null {
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    value = value[0];
  }
  if (value == null) return null;
  return typeof value === "string" ? cleanHtml(value) : refuse("not text");
}
function singleType(value: unknown): string | null {
  if (Array.isArray(value)) {
    if (value.length > 1) refuse("several types");
    value = value[0] ?? null;
  }
  if (value == null) return null;
  return typeof value === "string" ? value : refuse("type is not text");
}
function optionalString(value: unknown): string | null {
  if (value == null) return null;
  return typeof value === "string" ? value : refuse("not text");
}
function optionalBool(value: unknown): boolean | null {
  if (value == null) return null;
  return typeof value === "boolean" ? value : refuse("not a boolean");
}

/** A datetime as pydantic reads and writes one: ISO 8601, `Z` for UTC, microseconds kept. */
function datetime(value: unknown): string | null {
  if (value == null) return null;
  if (typeof value !== "string") return refuse("not a datetime");
  const m =
    /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)(?::(\d\d)(?:[.,](\d{1,6})\d*)?)?(Z|z|[+-]\d\d:?\d\d)?$/.exec(
      value.trim(),
    );
  if (!m || Number.isNaN(Date.parse(`${m[1]}T${m[2]}:00Z`))) return refuse("not a datetime");
  const seconds = m[3] ?? "00";
  const fraction = m[4] ? `.${m[4].padEnd(6, "0")}` : "";
  let zone = m[5] ?? "";
  if (zone === "z" || zone === "+00:00" || zone === "+0000" || zone === "-00:00") zone = "Z";
  else if (zone.length === 5) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `${m[1]}T${m[2]}:${seconds}${fraction}${zone}`;
}

function links(value: unknown): Json[] {
  return toList(value).map((v) =>
    typeof v === "string" ? { type: "Link", href: v } : (v as Json),
  );
}
function tags(value: unknown): Json[] {
  return toList(value).map((tag) => {
    if (typeof tag === "string") return { href: tag };
    const t = tag as Json;
    if (t.type === "Hashtag") {
      if (typeof t.name !== "string") refuse("hashtag without name");
      return dropNull({ type: "Hashtag", href: optionalString(t.href), name: t.name });
    }
    if (t.type === "Mention") {
      if (typeof t.href !== "string") refuse("mention without href");
      return dropNull({ type: "Mention", href: t.href, name: optionalString(t.name) });
    }
    if (t.type === "Link" && typeof t.mediaType === "string") {
      if (typeof t.href !== "string") refuse("link without href");
      return dropNull({
        type: "Link",
        href: t.href,
        mediaType: t.mediaType,
        name: optionalString(t.name),
        rel: optionalString(t.rel),
      });
    }
    return t;
  });
}
function attachments(value: unknown): Json[] {
  return toList(value).map((a) => {
    if (typeof a === "string") return { href: a };
    const item = { ...(a as Json) };
    if (item.type === "Document" && typeof item.mediaType === "string") {
      for (const kind of ["image", "audio", "video"]) {
        if (item.mediaType.startsWith(`${kind}/`))
          item.type = kind[0]!.toUpperCase() + kind.slice(1);
      }
    }
    return item;
  });
}
function dropNull(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}
function addressed(raw: Json, receiving: string | null) {
  let to = uriList(raw.to);
  if (to.length === 0 && receiving) to = [receiving];
  if (to.length === 0) refuse("addressed to no one");
  return { to, cc: uriList(raw.cc) };
}
const requiredId = (raw: Json) => {
  if (typeof raw.id !== "string") refuse("no id");
  return raw.id as string;
};

/** muck_out's normalize_object. */
function normalizeObject(raw: Json, receiving: string | null): Json {
  let content = html(raw.content);
  if (content === null && isObject(raw.contentMap)) {
    const first = Object.values(raw.contentMap)[0];
    if (typeof first === "string") content = cleanHtml(first);
  }
  const summary = html(raw.summary);
  const name = html(raw.name);
  // First of what refuses: an activity (a Create) is tried as an object too and is refused here,
  // before the rest is worked out for nothing.
  if (!content && !summary && !name) refuse("no content, summary or name");
  const attributedTo = idField(raw.attributedTo);
  const common = {
    id: requiredId(raw),
    type: singleType(raw.type) ?? refuse("no type"),
    ...addressed(raw, receiving),
    published: datetime(raw.published),
    updated: datetime(raw.updated),
    summary,
    name,
    inReplyTo: idField(raw.inReplyTo),
    context: idField(raw.context),
    tag: tags(raw.tag),
    replies: idField(raw.replies),
    likes: idField(raw.likes),
    shares: idField(raw.shares),
    attributedTo: attributedTo ?? refuse("no attributedTo"),
    content,
    contentPlain: content === null ? null : plainText(content),
    attachment: attachments(raw.attachment),
    url: links(raw.url),
    sensitive: optionalBool(raw.sensitive),
  };
  return dropNull(common);
}

/** muck_out's normalize_activity, with the embedded object taken out as normalize_data does. */
function normalizeActivity(
  raw: Json,
  receiving: string | null,
): { activity: Json; embedded?: Json } {
  let object: unknown = raw.object;
  let embedded: Json | undefined;
  if (isObject(object)) {
    try {
      embedded = normalizeObject(object, null);
      object = embedded.id;
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      object = (object as Json).id ?? null;
    }
  } else if (object != null && typeof object !== "string") refuse("object is not an id");
  let type = singleType(raw.type);
  if (type === "EmojiReact") type = "Like";
  const target = raw.target;
  const activity = dropNull({
    id: requiredId(raw),
    ...addressed(raw, receiving),
    published: datetime(raw.published),
    type: type ?? refuse("no type"),
    actor: idField(raw.actor) ?? refuse("no actor"),
    object: object ?? null,
    target: isObject(target) && target.id === undefined ? null : idField(target),
    content: html(raw.content),
  });
  return embedded ? { activity, embedded } : { activity };
}

/** muck_out's normalize_actor. */
function normalizeActor(raw: Json): Json {
  const inbox = idField(raw.inbox);
  if (inbox === null) refuse("no inbox");
  const id = requiredId(raw);
  const preferredUsername = optionalString(raw.preferredUsername);
  let identifiers = uriList(raw.identifiers);
  if (raw.identifiers == null) {
    let host = "";
    try {
      host = new URL(id).host;
    } catch {
      // muck_out's urlparse takes anything; an id that is no URL has no host
    }
    identifiers = preferredUsername ? [`acct:${preferredUsername}@${host}`, id] : [id];
  }
  if (identifiers.length === 0) identifiers = [id];
  let icon = raw.icon;
  if (Array.isArray(icon)) icon = icon[0] ?? null;
  if (icon != null && !isObject(icon)) refuse("icon is not an object");
  const alsoKnownAs = raw.alsoKnownAs == null ? null : uriList(raw.alsoKnownAs);
  return dropNull({
    inbox,
    outbox: idField(raw.outbox),
    followers: idField(raw.followers),
    following: idField(raw.following),
    summary: html(raw.summary),
    name: html(raw.name),
    url: links(raw.url),
    attachment: toList(raw.attachment).map((a) =>
      isObject(a) && a.type === "PropertyValue"
        ? {
            type: "PropertyValue",
            name: plainText(optionalString(a.name) ?? refuse("no name")),
            value: plainText(optionalString(a.value) ?? refuse("no value")),
          }
        : isObject(a)
          ? a
          : refuse("attachment is not an object"),
    ),
    tag: tags(raw.tag),
    manuallyApprovesFollowers: optionalBool(raw.manuallyApprovesFollowers),
    id,
    type: singleType(raw.type) ?? refuse("no type"),
    icon: icon ?? null,
    alsoKnownAs,
    preferredUsername,
    identifiers,
  });
}

const collectionTypes = new Set([
  "Collection",
  "OrderedCollection",
  "CollectionPage",
  "OrderedCollectionPage",
]);

/** muck_out's normalize_collection. */
function normalizeCollection(raw: Json): Json {
  const type = singleType(raw.type);
  if (!type || !collectionTypes.has(type)) refuse("not a collection");
  let items = uriList(raw.items);
  if (items.length === 0 && raw.orderedItems) items = uriList(raw.orderedItems);
  let next = idField(raw.next);
  let first = isObject(raw.first) ? null : idField(raw.first);
  if (isObject(raw.first)) {
    next = idField(raw.first.next);
    items = [...items, ...uriList(raw.first.items)];
    first = null;
  }
  const totalItems = raw.totalItems;
  if (totalItems != null && !Number.isInteger(totalItems)) refuse("totalItems is not a number");
  return dropNull({
    id: requiredId(raw),
    type,
    items,
    next,
    prev: idField(raw.prev),
    first,
    last: idField(raw.last),
    totalItems: totalItems ?? null,
  });
}

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (error instanceof Refused) return undefined;
    throw error;
  }
}

/** Present when the document is one: an activity (`actor`, `object` and `target` as ids). */
export interface Parsed {
  activity?: Json & {
    id: string;
    type: string;
    actor: string;
    to: string[];
    cc: string[];
    object?: string;
  };
  /** The document itself as an object, with `contentPlain`, `tag`, `attachment`, `url`. */
  object?: Json;
  actor?: Json;
  collection?: Json;
  /** An activity's embedded object, normalised as `object` is. */
  embedded_object?: Json;
  /** The actor an Update of itself carries. */
  embedded_actor?: Json;
}

/**
 * muck_out's normalize_data(raw, actor_id=receiving, drop_context=True), dumped as the
 * extension does. `receiving` is the actor the event is for: an activity addressed to no one is
 * taken as addressed to it.
 */
export function normalizeData(raw: unknown, receiving: string | null = null): Parsed {
  if (!isObject(raw)) return {};
  const result: Parsed = {};
  const normalized = attempt(() => normalizeActivity(raw, receiving));
  const object = attempt(() => normalizeObject(raw, receiving));
  if (object) result.object = object;
  if (normalized) result.activity = normalized.activity as Parsed["activity"];
  // Without an inbox no actor, without a collection's type no collection: said before trying.
  const actor = raw.inbox == null ? undefined : attempt(() => normalizeActor(raw));
  if (actor) result.actor = actor;
  const collection =
    typeof raw.type === "string" && !collectionTypes.has(raw.type)
      ? undefined
      : attempt(() => normalizeCollection(raw));
  if (collection) result.collection = collection;
  if (normalized?.embedded) result.embedded_object = normalized.embedded;
  if (
    normalized?.activity.type === "Update" &&
    normalized.activity.actor === normalized.activity.object &&
    isObject(raw.object)
  ) {
    const embeddedActor = attempt(() => normalizeActor(raw.object as Json));
    if (embeddedActor) result.embedded_actor = embeddedActor;
  }
  return result;
}
