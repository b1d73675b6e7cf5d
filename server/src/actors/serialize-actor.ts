// The one place an actor row becomes its public ActivityPub document. Fedify's actor dispatcher
// serves what serializeActor returns; /fe/account/create and update_actor use actorDocument().

import {
  Application,
  CryptographicKey,
  Endpoints,
  Group,
  Image,
  Link,
  Multikey,
  Organization,
  Person,
  PropertyValue,
  Service,
  Tombstone,
} from "@fedify/fedify/vocab";
import type { Db } from "../db/db.ts";
import { loadActorKeys } from "./actor-keys.ts";
import { findActor, type ActorRow } from "./actors.store.ts";
import { listIdentifiers, type IdentifierRow } from "./identifiers.store.ts";
import type { ImageRef, UrlJson } from "./profile.ts";

const actorClasses = { Person, Service, Application, Group, Organization };

export type ActorObject = Person | Service | Application | Group | Organization;

/** Where an actor's endpoints live: beside its id, and the shared inbox at its origin. */
export function actorUris(actorId: string) {
  return {
    inbox: new URL(`${actorId}/inbox`),
    outbox: new URL(`${actorId}/outbox`),
    followers: new URL(`${actorId}/followers`),
    following: new URL(`${actorId}/following`),
    sharedInbox: new URL("/inbox", actorId),
    mainKey: new URL(`${actorId}#main-key`),
    ed25519Key: new URL(`${actorId}#ed25519-key`),
  };
}

/** The actor as a Fedify vocabulary object; a deleted actor is a Tombstone. */
export async function serializeActor(
  db: Db,
  actor: ActorRow,
  identifiers?: IdentifierRow[],
): Promise<ActorObject | Tombstone> {
  const id = new URL(actor.id);
  if (actor.deleted) {
    return new Tombstone({ id });
  }
  const keys = await loadActorKeys(db, actor.id);
  if (!keys) throw new Error(`actor ${actor.id} has no keys`);
  identifiers ??= await listIdentifiers(db, actor.id);
  const acct = identifiers.find((i) => i.identifier.startsWith("acct:"));
  const uris = actorUris(actor.id);
  const { profile } = actor;
  const Class = actorClasses[profile.type ?? "Person"] ?? Person;
  return new Class({
    id,
    preferredUsername: acct
      ? acct.identifier.slice("acct:".length, acct.identifier.lastIndexOf("@"))
      : // An instance actor has no acct: but names itself as Mastodon's does (its host).
        actor.accountId === null && typeof profile.preferredUsername === "string"
        ? profile.preferredUsername
        : null,
    name: profile.name ?? null,
    summary: profile.summary ?? null,
    icon: toImage(profile.icon),
    image: toImage(profile.image),
    attachments: (profile.attachment ?? []).map(
      (p) => new PropertyValue({ name: p.name, value: p.value }),
    ),
    urls: (profile.url ?? []).map(toLink),
    aliases: (profile.alsoKnownAs ?? []).map((u) => new URL(u)),
    manuallyApprovesFollowers: !actor.autoFollow,
    inbox: uris.inbox,
    outbox: uris.outbox,
    followers: uris.followers,
    following: uris.following,
    endpoints: new Endpoints({ sharedInbox: uris.sharedInbox }),
    publicKey: new CryptographicKey({ id: uris.mainKey, owner: id, publicKey: keys.rsa.publicKey }),
    assertionMethods: [
      new Multikey({ id: uris.ed25519Key, controller: id, publicKey: keys.ed25519.publicKey }),
    ],
  });
}

/** The actor's public document as JSON (what remote servers fetch), or undefined if unknown. */
export async function actorDocument(
  db: Db,
  actorOrId: ActorRow | string,
): Promise<Record<string, unknown> | undefined> {
  const actor = typeof actorOrId === "string" ? await findActor(db, actorOrId) : actorOrId;
  if (!actor) return undefined;
  const object = await serializeActor(db, actor);
  return (await object.toJsonLd({ format: "compact" })) as Record<string, unknown>;
}

function toImage(ref: ImageRef | null | undefined): Image | null {
  if (!ref) return null;
  if (typeof ref === "string") return new Image({ url: new URL(ref) });
  return new Image({ url: new URL(ref.url), mediaType: ref.mediaType ?? null });
}

function toLink(url: UrlJson | string): Link | URL {
  if (typeof url === "string") return new URL(url);
  return new Link({
    href: new URL(url.href),
    mediaType: url.mediaType ?? null,
    rel: url.rel ?? null,
  });
}
