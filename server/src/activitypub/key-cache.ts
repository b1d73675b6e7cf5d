import { importPem, type KeyCache } from "@fedify/fedify";
import { CryptographicKey } from "@fedify/fedify/vocab";
import type { Db } from "../db/db.ts";
import { findLocalActor, loadPublicKey } from "./local-keys.ts";
import { idOf, isObject } from "./parse.ts";
import type { Outgoing } from "./outgoing-types.ts";
import { signedGet, type FetchResult, type Signer } from "./signing.ts";

// Public keys for verifying inbox requests. Fedify's verifyRequest() asks its KeyCache first and
// only on a miss fetches the key and runs it through JSON-LD (slow, and it needs the contexts).
// Ours answers every get(): our own actors' keys straight from the database, remote ones with a
// plain-JSON fetch of the key's document. The key's owner must share the key's origin, so a
// document cannot claim someone else's key.
//
// The fetch is signed (docs/server-guide.md#federation): cattle_grid, GoToSocial and Mastodon in secure
// mode answer an unsigned GET of an actor with 401. It is signed by our instance actor, which we
// serve to anyone, so a peer that fetches our key back to check the signature never loops. A signed
// fetch refused with 401 or 403 is tried once unsigned (a peer that cannot reach our instance actor
// may still serve keys to anyone) before the failure is remembered for 30 s.

const KEY_TTL_MS = 60 * 60 * 1000;
const FAILURE_TTL_MS = 30 * 1000;

interface Entry {
  key: CryptographicKey | null;
  expires: number;
  reason?: string;
}

export interface KeyCacheOptions {
  db: Db;
  outgoing: Outgoing;
  /** Who signs key fetches (the instance actor); null: unsigned. */
  signer: () => Promise<Signer | null>;
}

/** What an actor document fetched for its key says of its actor (for events' actor_info). */
export interface ActorProfile {
  preferredUsername: string | null;
  name: string | null;
}

export class InboxKeyCache implements KeyCache {
  readonly #entries = new Map<string, Entry>();
  readonly #profiles = new Map<string, ActorProfile>();
  readonly #options: KeyCacheOptions;

  constructor(options: KeyCacheOptions) {
    this.#options = options;
  }

  /** The preferredUsername and name of an actor whose document a key was fetched from. */
  profileOf(actorId: string): ActorProfile | undefined {
    return this.#profiles.get(actorId);
  }

  /** Why the last fetch of `keyId` failed, for the 401 answer. */
  reasonFor(keyId: string): string | undefined {
    return this.#entries.get(keyId)?.reason;
  }

  async get(keyId: URL): Promise<CryptographicKey | null> {
    const cached = this.#entries.get(keyId.href);
    if (cached && cached.expires > Date.now()) return cached.key;
    const entry = await this.#resolve(keyId);
    this.#entries.set(keyId.href, entry);
    if (this.#entries.size > 10_000) this.#entries.delete(this.#entries.keys().next().value!);
    return entry.key;
  }

  async set(keyId: URL, key: CryptographicKey | null): Promise<void> {
    // Fedify refetched after a failed verification (a rotated key): keep what it found.
    this.#entries.set(keyId.href, {
      key,
      expires: Date.now() + (key ? KEY_TTL_MS : FAILURE_TTL_MS),
    });
  }

  async #resolve(keyId: URL): Promise<Entry> {
    const documentUrl = new URL(keyId.href);
    documentUrl.hash = "";
    const local = await findLocalActor(this.#options.db, documentUrl.href);
    if (local) {
      const publicKey = await loadPublicKey(this.#options.db, local.id);
      if (publicKey)
        return found(new CryptographicKey({ id: keyId, owner: new URL(local.id), publicKey }));
    }
    const fetched = await this.#fetchKeyDocument(documentUrl.href);
    if (!fetched.ok) return failed(`key ${keyId.href} could not be fetched: ${fetched.reason}`);
    const pem = findKey(fetched.document, keyId);
    if (!pem.ok) return failed(pem.reason);
    if (new URL(pem.owner).origin !== keyId.origin) {
      return failed(`key ${keyId.href} claims owner ${pem.owner} on another origin`);
    }
    this.#keepProfile(pem.owner, fetched.document);
    try {
      const publicKey = await importPem(pem.publicKeyPem);
      return found(new CryptographicKey({ id: keyId, owner: new URL(pem.owner), publicKey }));
    } catch (error) {
      return failed(`key ${keyId.href} could not be imported: ${(error as Error).message}`);
    }
  }

  async #fetchKeyDocument(url: string): Promise<FetchResult> {
    const options = { outgoing: this.#options.outgoing, timeoutMs: 10_000 };
    let signer: Signer | null = null;
    try {
      signer = await this.#options.signer();
    } catch {
      // No instance actor (the database away): an unsigned fetch still serves most peers.
    }
    const first = await signedGet(url, signer, options);
    if (first.ok || !signer || (first.status !== 401 && first.status !== 403)) return first;
    const unsigned = await signedGet(url, null, options);
    return unsigned.ok
      ? unsigned
      : { ...first, reason: `${first.reason} (signed by ${signer.keyId.href}; unsigned too)` };
  }

  #keepProfile(owner: string, document: unknown) {
    if (!isObject(document) || idOf(document.id) !== owner) return; // a key document
    const text = (value: unknown) => (typeof value === "string" ? value : null);
    this.#profiles.delete(owner);
    this.#profiles.set(owner, {
      preferredUsername: text(document.preferredUsername),
      name: text(document.name),
    });
    if (this.#profiles.size > 10_000) this.#profiles.delete(this.#profiles.keys().next().value!);
  }
}

type FoundKey = { ok: true; owner: string; publicKeyPem: string } | { ok: false; reason: string };

/** The PEM and owner of `keyId` in an actor document (publicKey) or a key document. */
function findKey(document: unknown, keyId: URL): FoundKey {
  if (!isObject(document)) return { ok: false, reason: `key ${keyId.href}: not a JSON object` };
  if (typeof document.publicKeyPem === "string") {
    const owner = idOf(document.owner);
    if (!owner) return { ok: false, reason: `key ${keyId.href} has no owner` };
    return { ok: true, owner, publicKeyPem: document.publicKeyPem };
  }
  const keys = (
    Array.isArray(document.publicKey) ? document.publicKey : [document.publicKey]
  ).filter(isObject);
  const match =
    keys.find((k) => k.id === keyId.href) ??
    (keyId.hash === "" && keys.length === 1 ? keys[0] : undefined);
  const actorId = idOf(document.id);
  if (!match || typeof match.publicKeyPem !== "string" || !actorId) {
    return {
      ok: false,
      reason: `${keyId.href} is not among the keys of ${actorId ?? "the fetched document"}`,
    };
  }
  return { ok: true, owner: idOf(match.owner) ?? actorId, publicKeyPem: match.publicKeyPem };
}

function found(key: CryptographicKey): Entry {
  return { key, expires: Date.now() + KEY_TTL_MS };
}

function failed(reason: string): Entry {
  return { key: null, expires: Date.now() + FAILURE_TTL_MS, reason };
}
