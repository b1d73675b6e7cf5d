import type { Db } from "../db/db.ts";
import type { DeliveryRow } from "../db/deliveries.store.ts";
import { prepareBody, type PreparedBody } from "../activitypub/draft-signing.ts";
import { findBody } from "./delivery-bodies.store.ts";

// The bytes and Digest of what a claimed delivery sends, read and encoded once per body and
// process, not once per recipient: a post to 5,000 followers is read from the database once.
// Bodies are delivered in bursts, one after the other, so the oldest read goes first; the cache
// holds at most KEEP bodies and KEEP_BYTES of them (a body may be up to a MiB).

const KEEP = 256;
const KEEP_BYTES = 32 * 1024 * 1024;

interface Cache {
  entries: Map<number, Promise<PreparedBody | undefined>>;
  sizes: Map<number, number>;
  bytes: number;
}

const caches = new WeakMap<Db, Cache>();

export async function preparedBodyOf(db: Db, row: DeliveryRow): Promise<PreparedBody | undefined> {
  if (row.body_id === null) return prepareBody(row.body); // queued before bodies were stored once
  const id = row.body_id;
  const cache = caches.get(db) ?? { entries: new Map(), sizes: new Map(), bytes: 0 };
  caches.set(db, cache);
  const cached = cache.entries.get(id);
  if (cached) return cached;
  const prepared = findBody(db, id).then((found) =>
    found ? prepareBody(found.body, found.digest) : undefined,
  );
  cache.entries.set(id, prepared);
  prepared.then(
    (body) => {
      if (!cache.entries.has(id)) return;
      const size = body?.bytes.byteLength ?? 0;
      cache.sizes.set(id, size);
      cache.bytes += size;
      evict(cache);
    },
    () => forget(cache, id),
  );
  evict(cache);
  return prepared;
}

function evict(cache: Cache) {
  while (cache.entries.size > KEEP || cache.bytes > KEEP_BYTES) {
    const oldest = cache.entries.keys().next();
    if (oldest.done) return;
    forget(cache, oldest.value);
  }
}

function forget(cache: Cache, id: number) {
  cache.entries.delete(id);
  cache.bytes -= cache.sizes.get(id) ?? 0;
  cache.sizes.delete(id);
}
