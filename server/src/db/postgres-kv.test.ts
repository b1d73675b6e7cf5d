import type { KvKey, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
// Fedify's own Temporal polyfill (a dependency of @fedify/fedify): Node 24 has no global Temporal yet.
import { Temporal } from "@js-temporal/polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db.ts";
import { openDatabase } from "./open.ts";
import { PostgresKvStore } from "./postgres-kv.ts";
import { createTestDatabase, type TestDatabase } from "../../test/db/postgres-test-database.ts";

let database: TestDatabase;
let db: Db;
let kv: PostgresKvStore;
beforeAll(async () => {
  database = await createTestDatabase();
  db = (await openDatabase(database.url)).db;
  kv = new PostgresKvStore(db);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

// The polyfill's Duration is the one Fedify passes at run time; TypeScript knows the global type.
const ttl = (milliseconds: number): KvStoreSetOptions => ({
  ttl: Temporal.Duration.from({ milliseconds }) as unknown as KvStoreSetOptions["ttl"],
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function collect(entries: AsyncIterable<KvStoreListEntry>) {
  const out: KvStoreListEntry[] = [];
  for await (const entry of entries) out.push(entry);
  return out;
}

describe("PostgresKvStore", () => {
  it("gets what was set, overwrites it, and forgets it on delete", async () => {
    expect(await kv.get(["doc", "1"])).toBeUndefined();
    await kv.set(["doc", "1"], { name: "one", tags: ["a"], n: 1 });
    expect(await kv.get(["doc", "1"])).toEqual({ name: "one", tags: ["a"], n: 1 });
    await kv.set(["doc", "1"], "two");
    expect(await kv.get(["doc", "1"])).toBe("two");
    await kv.delete(["doc", "1"]);
    expect(await kv.get(["doc", "1"])).toBeUndefined();
  });

  it("keeps null, numbers and false as themselves", async () => {
    await kv.set(["v", "null"], null);
    await kv.set(["v", "zero"], 0);
    await kv.set(["v", "false"], false);
    expect([
      await kv.get(["v", "null"]),
      await kv.get(["v", "zero"]),
      await kv.get(["v", "false"]),
    ]).toEqual([null, 0, false]);
  });

  it("forgets a value once its ttl has passed", async () => {
    await kv.set(["short"], "soon gone", ttl(300));
    await kv.set(["long"], "stays", ttl(60_000));
    expect(await kv.get(["short"])).toBe("soon gone");
    await sleep(400);
    expect(await kv.get(["short"])).toBeUndefined();
    expect(await kv.get(["long"])).toBe("stays");
  });

  it("lists the entries under a key prefix, and not those that merely share its text", async () => {
    await kv.set(["list", "a"], 1);
    await kv.set(["list", "a", "x"], 2);
    await kv.set(["list", "ab"], 3);
    await kv.set(["list", "a%"], 4);
    await kv.set(["list", "a", "gone"], 5, ttl(1));
    await sleep(20);
    const entries = await collect(kv.list(["list", "a"]));
    const byKey = entries.sort((a, b) => a.key.length - b.key.length);
    expect(byKey).toEqual([
      { key: ["list", "a"], value: 1 },
      { key: ["list", "a", "x"], value: 2 },
    ] satisfies { key: KvKey; value: unknown }[]);
    expect((await collect(kv.list())).length).toBeGreaterThanOrEqual(4);
  });

  it("swaps only when the current value is the expected one", async () => {
    expect(await kv.cas(["cas"], undefined, { v: 1 })).toBe(true);
    expect(await kv.cas(["cas"], { v: 2 }, { v: 3 })).toBe(false);
    expect(await kv.get(["cas"])).toEqual({ v: 1 });
    expect(await kv.cas(["cas"], { v: 1 }, { v: 2 })).toBe(true);
    expect(await kv.cas(["cas"], undefined, { v: 9 })).toBe(false);
    expect(await kv.cas(["cas"], { v: 2 }, undefined)).toBe(true);
    expect(await kv.get(["cas"])).toBeUndefined();
  });

  it("lets exactly one of many simultaneous swaps from nothing win", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => kv.cas(["race"], undefined, i)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await kv.get(["race"])).toBe(results.indexOf(true));
  });

  it("treats an expired value as absent when swapping", async () => {
    await kv.set(["lease"], "old holder", ttl(1));
    await sleep(20);
    expect(await kv.cas(["lease"], undefined, "new holder")).toBe(true);
    expect(await kv.get(["lease"])).toBe("new holder");
  });

  it("is shared by stores on separate connections, as processes share it", async () => {
    const other = new PostgresKvStore(database.url);
    try {
      await kv.set(["shared"], { from: "first" });
      expect(await other.get(["shared"])).toEqual({ from: "first" });
      await other.delete(["shared"]);
      expect(await kv.get(["shared"])).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("refuses a SQLite database", async () => {
    const sqlite = await openDatabase("sqlite::memory:");
    expect(() => new PostgresKvStore(sqlite.db)).toThrow(
      "PostgresKvStore needs a PostgreSQL database",
    );
    await sqlite.db.close();
  });
});
