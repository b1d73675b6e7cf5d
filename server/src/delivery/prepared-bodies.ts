import type { Db } from "../db/db.ts";
import type { DeliveryRow } from "../db/deliveries.store.ts";
import { prepareBody, type PreparedBody } from "../activitypub/draft-signing.ts";
import { findBody } from "./delivery-bodies.store.ts";

// The bytes and Digest of what a claimed delivery sends, read and encoded once per body and
// process, not once per recipient: a post to 5,000 followers is read from the database once.

const KEEP = 256;
const caches = new WeakMap<Db, Map<number, Promise<PreparedBody | undefined>>>();

export async function preparedBodyOf(db: Db, row: DeliveryRow): Promise<PreparedBody | undefined> {
  if (row.body_id === null) return prepareBody(row.body); // queued before bodies were stored once
  const cache = caches.get(db) ?? new Map<number, Promise<PreparedBody | undefined>>();
  caches.set(db, cache);
  let prepared = cache.get(row.body_id);
  if (!prepared) {
    prepared = findBody(db, row.body_id).then((found) =>
      found ? prepareBody(found.body, found.digest) : undefined,
    );
    cache.set(row.body_id, prepared);
    prepared.catch(() => cache.delete(row.body_id!));
    // The oldest out first: bodies are delivered in bursts, one after the other.
    if (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  }
  return prepared;
}
