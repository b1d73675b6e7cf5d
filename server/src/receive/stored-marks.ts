import type { Db } from "../db/db.ts";
import { insertClaims, markStored, type SeenKey } from "./inbox-seen.store.ts";
import { grouped } from "../db/grouped.ts";

// The inbox's two writes per activity besides its event, grouped across the activities being
// received at once (grouped.ts): first claims, and marks once stored.

const groups = new WeakMap<
  Db,
  { claim(key: SeenKey): Promise<boolean>; mark(key: SeenKey): Promise<void> }
>();

function groupsOf(db: Db) {
  let found = groups.get(db);
  if (!found) {
    found = {
      claim: grouped((keys: SeenKey[]) => insertClaims(db, keys, Date.now())),
      mark: grouped(async (keys: SeenKey[]) => {
        await markStored(db, keys);
        return keys.map(() => undefined);
      }),
    };
    groups.set(db, found);
  }
  return found;
}

/** True when this call inserted the key's claim (false: it was there, or asked twice at once). */
export const insertClaimGrouped = (db: Db, key: SeenKey) => groupsOf(db).claim(key);

/** Resolves once the key's claim is marked stored. */
export const markStoredGrouped = (db: Db, key: SeenKey) => groupsOf(db).mark(key);
