import { afterEach, describe, expect, it } from "vitest";
import { DatabaseSync } from "node:sqlite";
import { Temporal } from "@js-temporal/polyfill";
import type { KvStoreSetOptions } from "@fedify/fedify";
import { SqliteKvStore } from "@fedify/sqlite";
import { issueToken } from "./accounts/index.ts";
import { sweepExpired } from "./background.ts";
import { PostgresKvStore } from "./db/postgres-kv.ts";
import { createTestDatabase } from "../test/db/postgres-test-database.ts";
import { freshDatabaseUrl } from "../test/fresh.ts";
import { startSlowSink } from "../test/slow-sink.ts";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../test/server.ts";

let server: TestServer | undefined;
afterEach(() => server?.close());

describe("sweeping expired rows", () => {
  it("deletes expired tokens and cache entries, a bounded number per run, and keeps live ones", async () => {
    const database = freshDatabaseUrl();
    server = await startTestServer({ database });
    const { db } = server.services;
    const account = await addAccount(server, "alice");
    const expiring = await Promise.all([1, 2, 3].map(() => issueToken(db, account.id, 60_000)));
    const live = await issueToken(db, account.id, 3_600_000);
    // Fedify's own store on the server's file, as the running server's federation uses it.
    const kv = new SqliteKvStore(new DatabaseSync(database.slice("sqlite:".length)));
    const ttl = Temporal.Duration.from({ seconds: 60 }) as unknown as KvStoreSetOptions["ttl"];
    for (const n of [1, 2, 3]) await kv.set(["test", String(n)], n, { ttl });
    await kv.set(["test", "kept"], "kept");
    const later = Date.now() + 120_000;
    expect(await sweepExpired(server.services, later, 2)).toEqual({ tokens: 2, kvEntries: 2 });
    expect(await sweepExpired(server.services, later, 2)).toEqual({ tokens: 1, kvEntries: 1 });
    expect(await sweepExpired(server.services, later, 2)).toEqual({ tokens: 0, kvEntries: 0 });
    expect((await fe(server, live, "/account/info")).status).toBe(200);
    // Swept, so refused although its own expiry is a minute away.
    expect((await fe(server, expiring[0]!, "/account/info")).status).toBe(401);
    expect(await kv.get(["test", "kept"])).toBe("kept");
  });

  it("sweeps on PostgreSQL too, before and after the cache table exists", async () => {
    const database = await createTestDatabase();
    try {
      server = await startTestServer({ database: database.url });
      const later = Date.now() + 120_000;
      expect(await sweepExpired(server.services, later)).toEqual({ tokens: 0, kvEntries: 0 });
      const kv = new PostgresKvStore(server.services.db);
      const ttl = Temporal.Duration.from({ seconds: 60 }) as unknown as KvStoreSetOptions["ttl"];
      await kv.set(["gone"], 1, { ttl });
      await kv.set(["kept"], 2);
      expect(await sweepExpired(server.services, later)).toEqual({ tokens: 0, kvEntries: 1 });
      expect(await kv.get(["kept"])).toBe(2);
    } finally {
      await server?.close();
      server = undefined;
      await database.drop();
    }
  });
});

describe("claims of background work", () => {
  // docs/operations.md#several-processes-on-one-postgresql: a delivery in flight is claimed for
  // --claim-lease seconds from its claim or last renewal; `corral serve` takes 30 unless told.
  for (const [given, seconds] of [
    [undefined, 30],
    [7, 7],
  ] as const)
    it(`holds a delivery in flight for ${seconds} s ${given ? "with --claim-lease 7" : "by default"}`, async () => {
      const sink = await startSlowSink(1, 120_000);
      try {
        server = await startTestServer({ claimLease: given });
        await addAccount(server, "alice");
        const token = await signIn(server, "alice");
        const actor = await addActor(server, token);
        const before = Date.now();
        const data = {
          id: `${actor.id}/claimed`,
          type: "Create",
          actor: actor.id,
          to: sink.actorIds,
          object: { type: "Note" },
        };
        const sent = await fe(server, token, "/actor/trigger/send_message", {
          body: { actor: actor.id, data },
        });
        expect(sent.status).toBe(202);
        await expect.poll(() => sink.open(), { timeout: 15_000 }).toBe(1);
        const row = await server.services.db.get<{ locked_until: number }>(
          `SELECT locked_until FROM deliveries`,
        );
        const after = Date.now();
        expect(Number(row!.locked_until)).toBeGreaterThanOrEqual(before + seconds * 1000);
        expect(Number(row!.locked_until)).toBeLessThanOrEqual(after + seconds * 1000);
      } finally {
        await sink.close();
      }
    });
});
