import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import { claimSeen, markStored, releaseClaim } from "./inbox-seen.store.ts";

const key = {
  actorId: "https://a.example/actor/1",
  activityId: "https://b.example/1",
  senderId: "https://b.example/bob",
};
const STALE = 10_000;

describe("inbox claims: each activity stored once per receiving actor, and never lost", () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("a second copy waits while the first is being stored, and is a replay once it is", async () => {
    db = (await openFreshDatabase()).db;
    expect(await claimSeen(db, key, 1_000, 1_000 - STALE)).toBe("claimed");
    expect(await claimSeen(db, key, 1_010, 1_010 - STALE)).toBe("busy");
    await markStored(db, [key]);
    expect(await claimSeen(db, key, 1_020, 1_020 - STALE)).toBe("stored");
    // Long after, still a replay: a stored claim never goes stale.
    expect(await claimSeen(db, key, 1_000 + 2 * STALE, 1_000 + STALE)).toBe("stored");
  });

  it("a claim left by a process that died before storing passes to the next copy once stale", async () => {
    db = (await openFreshDatabase()).db;
    expect(await claimSeen(db, key, 1_000, 1_000 - STALE)).toBe("claimed");
    expect(await claimSeen(db, key, 1_000 + STALE - 1, 999 - 1)).toBe("busy");
    expect(await claimSeen(db, key, 1_001 + STALE, 1_001)).toBe("claimed");
  });

  it("a claim given up after a failed store is free at once", async () => {
    db = (await openFreshDatabase()).db;
    expect(await claimSeen(db, key, 1_000, 1_000 - STALE)).toBe("claimed");
    await releaseClaim(db, key);
    expect(await claimSeen(db, key, 1_001, 1_001 - STALE)).toBe("claimed");
  });
});
