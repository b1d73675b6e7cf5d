import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import { createSignInThrottle } from "./throttle.ts";

let db: Db | undefined;
afterEach(() => db?.close());

const limits = { windowMs: 60_000, maxPerName: 2, maxPerAddress: 3 };

describe("the sign-in throttle", () => {
  it("is shared through the database: failures counted by one process lock out in another", async () => {
    db = (await openFreshDatabase()).db;
    let now = 1_000_000;
    const first = createSignInThrottle(db, { ...limits, now: () => now });
    const second = createSignInThrottle(db, { ...limits, now: () => now });
    await first.recordFailure("alice", "192.0.2.1");
    now += 10_000;
    await first.recordFailure("alice", "192.0.2.2");
    expect(await second.retryAfter("alice", "192.0.2.9")).toBe(50);
    expect(await second.retryAfter("bruno", "192.0.2.9")).toBe(0);
    now += 50_001;
    expect(await second.retryAfter("alice", "192.0.2.9")).toBe(0);
  });

  it("counts an address across names, and a success forgives the name only", async () => {
    db = (await openFreshDatabase()).db;
    const throttle = createSignInThrottle(db, limits);
    for (const name of ["a", "b", "c"]) await throttle.recordFailure(name, "192.0.2.1");
    expect(await throttle.retryAfter("d", "192.0.2.1")).toBeGreaterThan(0);
    expect(await throttle.retryAfter("d", "192.0.2.2")).toBe(0);
    await throttle.recordFailure("e", "192.0.2.2");
    await throttle.recordFailure("e", "192.0.2.3");
    expect(await throttle.retryAfter("e", "192.0.2.4")).toBeGreaterThan(0);
    await throttle.recordSuccess("e");
    expect(await throttle.retryAfter("e", "192.0.2.4")).toBe(0);
  });
});
