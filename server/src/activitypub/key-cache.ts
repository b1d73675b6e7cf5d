import { importPem, type KeyCache } from "@fedify/fedify";
import { CryptographicKey } from "@fedify/fedify/vocab";
import type { Db } from "../db/db.ts";
import { findLocalActor, loadPublicKey } from "./local-keys.ts";
import { idOf, isObject } from "./parse.ts";
import type { Outgoing } from "./outgoing-types.ts";
import { signedGet } from "./signing.ts";

// Public keys for verifying inbox requests. Fedify's verifyRequest() asks its KeyCache first and
// only on a miss fetches the key and runs it through JSON-LD (slow, and it needs the contexts).
// Ours answers every get(): our own actors' keys straight from the database, remote ones with a
// plain-JSON fetch of the key's document. The key's owner must share the key's origin, so a
// document cannot claim someone else's key.

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
}

export class InboxKeyCache implements KeyCache {
  readonly #entries = new Map<string, Entry>();
  readonly #options: KeyCacheOptions;

  constructor(options: KeyCacheOptions) {
    this.#options = options;
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
    // Unsigned: servers with authorized fetch still serve actors' keys to anyone (that is how
    // a first contact can verify at all).
    const fetched = await signedGet(documentUrl.href, null, {
      outgoing: this.#options.outgoing,
      timeoutMs: 10_000,
    });
    if (!fetched.ok) return failed(`key ${keyId.href} could not be fetched: ${fetched.reason}`);
    const pem = findKey(fetched.document, keyId);
    if (!pem.ok) return failed(pem.reason);
    if (new URL(pem.owner).origin !== keyId.origin) {
      return failed(`key ${keyId.href} claims owner ${pem.owner} on another origin`);
    }
    try {
      const publicKey = await importPem(pem.publicKeyPem);
      return found(new CryptographicKey({ id: keyId, owner: new URL(pem.owner), publicKey }));
    } catch (error) {
      return failed(`key ${keyId.href} could not be imported: ${(error as Error).message}`);
    }
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
