import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { openDatabase } from "../db/open.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import { createTestDatabase } from "../../test/db/postgres-test-database.ts";
import {
  actorDocument,
  createActor,
  findActorAccounts,
  findActor,
  listActors,
  listIdentifiers,
  loadActorKeys,
} from "./index.ts";

let db: Db;
afterEach(() => db?.close());

async function setUp() {
  ({ db } = await openFreshDatabase());
  await db.run(`INSERT INTO accounts (name, password_hash, created_at) VALUES ('alice', 'x', 0)`);
  return 1;
}

describe("actors", () => {
  it("creates an actor under {baseUrl}/actor/ with an acct: identifier carrying the port", async () => {
    const accountId = await setUp();
    const result = await createActor(db, {
      accountId,
      baseUrl: "http://localhost:3000",
      handle: "alice",
      name: "Alice",
    });
    if (!result.ok) throw new Error(result.error);
    expect(result.actor.id).toMatch(/^http:\/\/localhost:3000\/actor\/[A-Za-z0-9_-]{22}$/);
    expect(result.actor).toMatchObject({
      accountId,
      name: "Alice",
      autoFollow: false,
      deleted: false,
    });
    expect(await listIdentifiers(db, result.actor.id)).toEqual([
      { identifier: "acct:alice@localhost:3000", actorId: result.actor.id, primary: true },
    ]);
    expect((await listActors(db, accountId)).map((a) => a.id)).toEqual([result.actor.id]);
  });

  // Cattle Drive's create_actor (what a roboherd bot sends): the actor starts with its profile
  // and automatic acceptance of followers, as cattle_grid creates it.
  it("creates an actor with a given profile and automatic acceptance of followers", async () => {
    const accountId = await setUp();
    const result = await createActor(db, {
      accountId,
      baseUrl: "http://localhost:3000",
      handle: "moocow",
      name: "bot:moocow",
      profile: { type: "Service", summary: "I moo" },
      autoFollow: true,
    });
    if (!result.ok) throw new Error(result.error);
    expect(result.actor).toMatchObject({ name: "bot:moocow", autoFollow: true });
    expect(await actorDocument(db, result.actor)).toMatchObject({
      type: "Service",
      preferredUsername: "moocow",
      summary: "I moo",
      manuallyApprovesFollowers: false,
    });
  });

  it("refuses a handle already taken on the same host", async () => {
    const accountId = await setUp();
    await createActor(db, { accountId, baseUrl: "https://example.com", handle: "bob" });
    expect(
      await createActor(db, { accountId, baseUrl: "https://example.com", handle: "bob" }),
    ).toEqual({
      ok: false,
      error: "duplicate-identifier",
    });
    expect(
      (await createActor(db, { accountId, baseUrl: "https://other.example", handle: "bob" })).ok,
    ).toBe(true);
  });

  it("keeps usable RSA and Ed25519 keys that sign and verify", async () => {
    const accountId = await setUp();
    const created = await createActor(db, { accountId, baseUrl: "https://example.com" });
    if (!created.ok) throw new Error();
    const keys = (await loadActorKeys(db, created.actor.id))!;
    const data = new TextEncoder().encode("hello");
    const rsaSig = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", keys.rsa.privateKey, data);
    expect(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", keys.rsa.publicKey, rsaSig, data)).toBe(
      true,
    );
    expect(
      (keys.rsa.publicKey.algorithm as unknown as { modulusLength: number }).modulusLength,
    ).toBe(2048);
    const edSig = await crypto.subtle.sign("Ed25519", keys.ed25519.privateKey, data);
    expect(await crypto.subtle.verify("Ed25519", keys.ed25519.publicKey, edSig, data)).toBe(true);
  });

  it("publishes a document with endpoints, keys and the handle", async () => {
    const accountId = await setUp();
    const created = await createActor(db, {
      accountId,
      baseUrl: "https://example.com",
      handle: "carol",
    });
    if (!created.ok) throw new Error();
    const id = created.actor.id;
    await db.run(`UPDATE actors SET profile = ? WHERE id = ?`, [
      JSON.stringify({
        name: "Carol",
        summary: "hi",
        attachment: [{ type: "PropertyValue", name: "k", value: "v" }],
      }),
      id,
    ]);
    const doc = (await actorDocument(db, id))!;
    expect(doc).toMatchObject({
      id,
      type: "Person",
      preferredUsername: "carol",
      name: "Carol",
      summary: "hi",
      inbox: `${id}/inbox`,
      outbox: `${id}/outbox`,
      followers: `${id}/followers`,
      following: `${id}/following`,
      endpoints: { sharedInbox: "https://example.com/inbox" },
      manuallyApprovesFollowers: true,
      publicKey: { id: `${id}#main-key`, owner: id },
      assertionMethod: [{ id: `${id}#ed25519-key`, type: "Multikey", controller: id }],
      attachment: { type: "PropertyValue", name: "k", value: "v" },
    });
    expect((doc.publicKey as { publicKeyPem: string }).publicKeyPem).toMatch(
      /^-----BEGIN PUBLIC KEY-----/,
    );
  });

  it("flags a deleted actor and serialises it as a Tombstone", async () => {
    const accountId = await setUp();
    const created = await createActor(db, { accountId, baseUrl: "https://example.com" });
    if (!created.ok) throw new Error();
    await db.run(`UPDATE actors SET deleted_at = 5, account_id = NULL WHERE id = ?`, [
      created.actor.id,
    ]);
    expect(await findActor(db, created.actor.id)).toMatchObject({ deleted: true, accountId: null });
    expect(await actorDocument(db, created.actor.id)).toMatchObject({
      type: "Tombstone",
      id: created.actor.id,
    });
    expect(await listActors(db, accountId)).toEqual([]);
  });
});

describe("findActorAccounts on PostgreSQL", () => {
  it("finds the actors among any number of ids with one prepared statement", async () => {
    // The inbox asks for each group of activities; postgres.js prepares each new statement
    // text on each connection (a round trip before its first run), so one text per number of
    // ids cost most groups a round trip.
    const database = await createTestDatabase();
    ({ db } = await openDatabase(database.url, { pool: 1 }));
    try {
      await db.run(
        `INSERT INTO accounts (name, password_hash, created_at) VALUES ('alice', 'x', 0)`,
      );
      const made: string[] = [];
      for (const handle of ["a1", "a2", "a3"]) {
        const result = await createActor(db, { accountId: 1, baseUrl: "http://h", handle });
        if (!result.ok) throw new Error(result.error);
        made.push(result.actor.id);
      }
      for (const ids of [[made[0]!], [made[1]!, "http://h/actor/none"], made, [...made, "x"]]) {
        const found = await findActorAccounts(db, ids);
        expect(found.map((f) => f.id).sort()).toEqual(ids.filter((id) => made.includes(id)).sort());
        expect(found.every((f) => f.accountId === 1 && !f.deleted)).toBe(true);
      }
      const prepared = await db.all<{ n: number }>(
        `SELECT COUNT(*) AS n FROM pg_prepared_statements
         WHERE statement LIKE 'SELECT id, account_id, deleted_at FROM actors%'`,
      );
      expect(prepared[0]!.n).toBe(1);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
