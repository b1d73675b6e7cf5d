import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";

let server: TestServer;
afterEach(() => server?.close());

const asJson = { headers: { Accept: "application/activity+json" } };

describe("actors and their collections", () => {
  it("serves each base URL's actors by Host, and only there", async () => {
    server = await startTestServer();
    const port = new URL(server.url).port;
    // Two origins on one listener: 127.0.0.1 and localhost name different hosts.
    server.services.config.baseUrls = [server.url, `http://localhost:${port}`];
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const created = await fe(server, token, "/account/create", {
      body: { baseUrl: `http://localhost:${port}`, handle: "al" },
    });
    const actor = (await created.json()) as { id: string };
    expect(actor.id.startsWith(`http://localhost:${port}/actor/`)).toBe(true);
    const viaLocalhost = await fetch(actor.id, asJson);
    expect(viaLocalhost.status).toBe(200);
    const viaOtherHost = await fetch(actor.id.replace("localhost", "127.0.0.1"), asJson);
    expect(viaOtherHost.status).not.toBe(200);
    const finger = await fetch(
      `http://localhost:${port}/.well-known/webfinger?resource=acct:al@localhost:${port}`,
    );
    expect(finger.status).toBe(200);
  });

  it("treats plain-http requests naming an https base URL's host as addressed to it (TLS proxy)", async () => {
    server = await startTestServer({ baseUrls: ["https://social.example"] });
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const created = await fe(server, token, "/account/create", {
      body: { baseUrl: "https://social.example", handle: "al" },
    });
    const actor = (await created.json()) as { id: string };
    const path = new URL(actor.id).pathname;
    const got = await rawRequest(server.url, "GET", path, "social.example", {
      Accept: "application/activity+json",
    });
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body)).toMatchObject({ id: actor.id, inbox: `${actor.id}/inbox` });
    // An unsigned POST reaches the inbox of the https actor with its body, and is refused there.
    const posted = await rawRequest(
      server.url,
      "POST",
      `${path}/inbox`,
      "social.example",
      { "Content-Type": "application/activity+json" },
      JSON.stringify({ type: "Follow", actor: "https://remote.example/u", object: actor.id }),
    );
    expect(posted.status).toBe(401);
  });

  it("serves a Tombstone with 410 once the actor is deleted", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const actor = await addActor(server, await signIn(server, "alice"), "alice");
    await server.services.db.run(
      `UPDATE actors SET deleted_at = ?, account_id = NULL WHERE id = ?`,
      [Date.now(), actor.id],
    );
    const response = await fetch(actor.id, asJson);
    expect(response.status).toBe(410);
  });

  it("serves followers, following and outbox from their tables", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const actor = await addActor(server, await signIn(server, "alice"), "alice");
    const db = server.services.db;
    await db.run(
      `INSERT INTO followers (actor_id, follower_id, inbox, created_at) VALUES (?, ?, ?, 1)`,
      [actor.id, "https://remote.example/users/bob", "https://remote.example/users/bob/inbox"],
    );
    await db.run(
      `INSERT INTO following (actor_id, target_id, accepted, created_at) VALUES (?, ?, 1, 1)`,
      [actor.id, "https://remote.example/users/carol"],
    );
    await db.run(
      `INSERT INTO following (actor_id, target_id, accepted, created_at) VALUES (?, ?, 0, 2)`,
      [actor.id, "https://remote.example/users/pending"],
    );
    const note = `${server.url}/objects/1`;
    const create = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${server.url}/objects/2`,
      type: "Create",
      actor: actor.id,
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      object: { id: note, type: "Note", content: "hello", attributedTo: actor.id },
    };
    await db.run(`INSERT INTO objects (id, actor_id, data, created_at) VALUES (?, ?, ?, 1)`, [
      create.id,
      actor.id,
      JSON.stringify(create),
    ]);

    const followers = await readCollection(`${actor.id}/followers`);
    expect(followers.totalItems).toBe(1);
    expect(followers.items).toEqual(["https://remote.example/users/bob"]);
    const following = await readCollection(`${actor.id}/following`);
    expect(following.totalItems).toBe(1);
    expect(following.items).toEqual(["https://remote.example/users/carol"]);
    const outbox = await readCollection(`${actor.id}/outbox`);
    expect(outbox.totalItems).toBe(1);
    expect(outbox.items).toMatchObject([{ id: create.id, type: "Create" }]);
  });
});

/** The collection's totalItems and the items of its first page. */
async function readCollection(url: string): Promise<{ totalItems: number; items: unknown[] }> {
  const collection = (await (await fetch(url, asJson)).json()) as {
    totalItems: number;
    first: string | { id: string };
  };
  const first = typeof collection.first === "string" ? collection.first : collection.first.id;
  const page = (await (await fetch(first, asJson)).json()) as {
    orderedItems?: unknown;
    items?: unknown;
  };
  const items = page.orderedItems ?? page.items ?? [];
  return { totalItems: collection.totalItems, items: Array.isArray(items) ? items : [items] };
}

/** An HTTP request with a chosen Host header (fetch does not let tests set it). */
function rawRequest(
  base: string,
  method: string,
  path: string,
  host: string,
  headers: Record<string, string>,
  body?: string,
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(base);
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, method, path, headers: { ...headers, Host: host } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
