import { afterAll, describe, expect, it } from "vitest";
import { createMemoryBus } from "../../src/db/bus.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createEventLog } from "../../src/events/event-log.ts";
import { claimSeen, insertClaims } from "../../src/receive/inbox-seen.store.ts";
import { freshDatabaseUrl } from "../fresh.ts";
import { createTestDatabase, type TestDatabase } from "./postgres-test-database.ts";

// The inbox's claim of an activity is marked stored by the append of its event, in the same
// commit: never an event stored with its claim still open (a copy arriving once the claim is
// stale would be stored again), never a claim marked without its event.

const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
});

const dialects = [
  { name: "sqlite", fresh: async () => freshDatabaseUrl() },
  {
    name: "postgres",
    fresh: async () => {
      const database = await createTestDatabase();
      databases.push(database);
      return database.url;
    },
  },
];

const keyOf = (n: number) => ({
  actorId: "https://a.example/actor/1",
  activityId: `https://b.example/${n}`,
  senderId: "https://b.example/bob",
});

describe.each(dialects)("an event append with inbox claims on $name", (dialect) => {
  it("marks the claims it stores, in groups and alone, and no other", async () => {
    const { db } = await openDatabase(await dialect.fresh());
    try {
      await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('a', 'x', 0)`);
      const log = createEventLog(db, createMemoryBus(), { cap: 100 });
      const keys = [0, 1, 2, 3].map(keyOf);
      expect(await insertClaims(db, keys, Date.now())).toEqual([true, true, true, true]);
      // One turn: one group of three, one of them without a claim.
      await Promise.all([
        log.append(1, "incoming", { n: 0 }, { claim: keys[0]! }),
        log.append(1, "incoming", { n: 1 }, { claim: keys[1]! }),
        log.append(1, "incoming", { n: 9 }),
      ]);
      await log.append(1, "incoming", { n: 2 }, { claim: keys[2]! });
      const now = Date.now();
      const states = await Promise.all(keys.map((key) => claimSeen(db, key, now, 0)));
      expect(states).toEqual(["stored", "stored", "stored", "busy"]);
    } finally {
      await db.close();
    }
  });

  it("leaves the claim open when its event could not be stored", async () => {
    const { db } = await openDatabase(await dialect.fresh());
    try {
      const log = createEventLog(db, createMemoryBus(), { cap: 100 });
      expect(await insertClaims(db, [keyOf(5)], Date.now())).toEqual([true]);
      // No account 7: the event's insert fails, and the mark with it.
      await expect(log.append(7, "incoming", { n: 5 }, { claim: keyOf(5) })).rejects.toThrow();
      expect(await claimSeen(db, keyOf(5), Date.now(), 0)).toBe("busy");
    } finally {
      await db.close();
    }
  });
});
