import { afterEach, describe, expect, it } from "vitest";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";
import { methodInformationFor } from "../methods/catalog.ts";

let server: TestServer;
afterEach(() => server?.close());

const otherBase = "http://other.example";

describe("GET /fe/account/info", () => {
  it("answers the account's name, actors, base URLs, backend, protocol and methods", async () => {
    server = await startTestServer({ baseUrls: [otherBase] });
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const created = await fe(server, token, "/account/create", {
      body: { baseUrl: otherBase, handle: "al", name: "Al" },
    });
    const actor = (await created.json()) as { id: string };
    const info = await (await fe(server, token, "/account/info")).json();
    expect(info).toEqual({
      accountName: "alice",
      actors: [{ id: actor.id, name: "Al" }],
      baseUrls: [otherBase],
      backend: { name: "corral", version: expect.any(String) },
      protocol: { name: "CattleDrive", version: "0.1.0" },
      methodInformation: methodInformationFor([actor.id]),
    });
    expect(info.methodInformation.map((m: { routing_key: string }) => m.routing_key)).toEqual([
      "send_message",
      "update_actor",
      "delete_actor",
      "publish_activity",
      "publish_object",
    ]);
  });

  it("names the account's own actors as the recipients of send_message's example", async () => {
    server = await startTestServer({ baseUrls: [otherBase] });
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const ids: string[] = [];
    for (const handle of ["a1", "a2", "a3", "a4"]) {
      const created = await fe(server, token, "/account/create", {
        body: { baseUrl: otherBase, handle },
      });
      ids.push(((await created.json()) as { id: string }).id);
    }
    const info = await (await fe(server, token, "/account/info")).json();
    const send = info.methodInformation.find(
      (m: { routing_key: string }) => m.routing_key === "send_message",
    );
    // The three oldest, and the public collection.
    expect(send.example.data.to).toEqual([
      ...ids.slice(0, 3),
      "https://www.w3.org/ns/activitystreams#Public",
    ]);
  });

  it("lists only the base URLs a non-admin account's permissions grant", async () => {
    server = await startTestServer({ baseUrls: ["http://a.example", "http://b.example:8080"] });
    await addAccount(server, "plain", undefined, { admin: false, permissions: [] });
    await addAccount(server, "granted", undefined, {
      admin: false,
      permissions: ["b.example:8080"],
    });
    const plain = await (await fe(server, await signIn(server, "plain"), "/account/info")).json();
    const granted = await (
      await fe(server, await signIn(server, "granted"), "/account/info")
    ).json();
    expect(plain.baseUrls).toEqual([]);
    expect(granted.baseUrls).toEqual(["http://b.example:8080"]);
  });

  it("answers 401 with a reason for a missing, unknown, expired or revoked token", async () => {
    server = await startTestServer();
    const account = await addAccount(server, "alice");
    const missing = await fe(server, null, "/account/info");
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ detail: "Not authenticated" });
    const unknown = await fe(server, "not-a-token", "/account/info");
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).detail).toMatch(/invalid or revoked/i);

    const expired = await signIn(server, "alice");
    await server.services.db.run(`UPDATE tokens SET expires_at = ? WHERE account_id = ?`, [
      Date.now() - 1,
      account.id,
    ]);
    const expiredAnswer = await fe(server, expired, "/account/info");
    expect(expiredAnswer.status).toBe(401);
    expect((await expiredAnswer.json()).detail).toMatch(/expired/i);

    const revoked = await signIn(server, "alice");
    expect((await fe(server, revoked, "/account/info")).status).toBe(200);
    const { revokeTokens } = await import("../accounts/index.ts");
    await revokeTokens(server.services.db, "alice");
    expect((await fe(server, revoked, "/account/info")).status).toBe(401);
  });
});

describe("POST /fe/account/create", () => {
  it("answers 201 with the ActivityPub document of a real actor", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const response = await fe(server, token, "/account/create", {
      body: { baseUrl: server.url, handle: "alice" },
    });
    expect(response.status).toBe(201);
    const doc = (await response.json()) as Record<string, unknown> & { id: string };
    expect(doc.id.startsWith(`${server.url}/actor/`)).toBe(true);
    expect(doc).toMatchObject({
      type: "Person",
      preferredUsername: "alice",
      inbox: `${doc.id}/inbox`,
    });
    // The same document dereferences at its id.
    const fetched = await fetch(doc.id, { headers: { Accept: "application/activity+json" } });
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual(doc);
  });

  it("answers 409 Duplicate identifier when the handle is taken", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    await addAccount(server, "bob");
    await fe(server, await signIn(server, "alice"), "/account/create", {
      body: { baseUrl: server.url, handle: "taken" },
    });
    const again = await fe(server, await signIn(server, "bob"), "/account/create", {
      body: { baseUrl: server.url, handle: "taken" },
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ detail: "Duplicate identifier" });
  });

  it("answers 400 for a base URL the server does not host and 403 for one the account may not use", async () => {
    server = await startTestServer({ baseUrls: ["http://a.example", "http://b.example"] });
    await addAccount(server, "limited", undefined, { admin: false, permissions: ["a.example"] });
    const token = await signIn(server, "limited");
    const foreign = await fe(server, token, "/account/create", {
      body: { baseUrl: "http://elsewhere.example" },
    });
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).detail).toMatch(/baseUrl must be one of/);
    const forbidden = await fe(server, token, "/account/create", {
      body: { baseUrl: "http://b.example" },
    });
    expect(forbidden.status).toBe(403);
    expect(
      (await fe(server, token, "/account/create", { body: { baseUrl: "http://a.example/" } }))
        .status,
    ).toBe(201);
  });

  it("answers 422 for a missing baseUrl or an impossible handle", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const missing = await fe(server, token, "/account/create", { body: { handle: "x" } });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      detail: [{ loc: ["body", "baseUrl"], msg: "Field required", type: "missing" }],
    });
    const badHandle = await fe(server, token, "/account/create", {
      body: { baseUrl: server.url, handle: "a b@c" },
    });
    expect(badHandle.status).toBe(422);
    expect((await badHandle.json()).detail[0].loc).toEqual(["body", "handle"]);
    const notObject = await fe(server, token, "/account/create", { body: "[1]" });
    expect((await notObject.json()).detail[0]).toMatchObject({
      loc: ["body"],
      type: "model_attributes_type",
    });
  });
});
