import { createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";
import { openSse } from "../../test/sse.ts";

let server: TestServer;
afterEach(() => server?.close());

async function setUp() {
  server = await startTestServer();
  await addAccount(server, "alice");
  await addAccount(server, "bob");
  const alice = await signIn(server, "alice");
  const bob = await signIn(server, "bob");
  const aliceActor = await addActor(server, alice, "alice");
  const bobActor = await addActor(server, bob, "bob");
  return { alice, bob, aliceActor, bobActor };
}

describe("POST /fe/actor/lookup", () => {
  it("answers 200 with raw and parsed for a document, here a local actor found by handle", async () => {
    const { alice, aliceActor, bobActor } = await setUp();
    const host = new URL(server.url).host;
    const response = await fe(server, alice, "/actor/lookup", {
      body: { actorId: aliceActor.id, uri: `acct:bob@${host}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { raw: { id: string }; parsed?: unknown };
    expect(body.raw.id).toBe(bobActor.id);
    expect(body.parsed).toBeDefined();
  });

  it("says a local handle that does not exist is not on this server, without asking WebFinger", async () => {
    const { alice, aliceActor } = await setUp();
    const host = new URL(server.url).host;
    for (const uri of [`@nobody@${host}`, `acct:nobody@${host.toUpperCase()}`]) {
      const response = await fe(server, alice, "/actor/lookup", {
        body: { actorId: aliceActor.id, uri },
      });
      expect(await response.json()).toEqual({
        raw: null,
        error: `no actor acct:nobody@${host} on this server`,
        kind: "not-found",
        exchange: {
          requests: [],
          note: `acct:nobody@${host} is on this server: answered from its database, no request sent`,
        },
      });
    }
  });

  it("shows the exchange: a WebFinger request, the signed GET as sent, each redirect, each answer with its timings", async () => {
    const { alice, aliceActor } = await setUp();
    const remote = await startTestServer();
    const redirector = createServer((req, res) => {
      res.writeHead(301, { Location: `${remote.url}${req.url}`, "Cache-Control": "no-store" });
      res.end();
    });
    await new Promise<void>((done) => redirector.listen(0, "127.0.0.1", done));
    try {
      await addAccount(remote, "carol");
      const carol = await addActor(remote, await signIn(remote, "carol"), "carol");
      const host = new URL(remote.url).host;
      const response = await fe(server, alice, "/actor/lookup", {
        body: { actorId: aliceActor.id, uri: `@carol@${host}` },
      });
      const body = await response.json();
      expect(body.raw.id).toBe(carol.id);
      const [webfinger, actor] = body.exchange.requests;
      expect(body.exchange.requests).toHaveLength(2);
      expect(webfinger).toMatchObject({
        method: "GET",
        url: `${remote.url}/.well-known/webfinger?resource=${encodeURIComponent(`acct:carol@${host}`)}`,
        signedAs: null,
        answer: { status: 200, headers: { "content-type": expect.stringMatching(/jrd\+json/) } },
      });
      expect(webfinger.headers.signature).toBeUndefined();
      expect(actor).toMatchObject({
        method: "GET",
        url: carol.id,
        signedAs: aliceActor.id,
        headers: {
          accept: expect.stringContaining("application/activity+json"),
          date: expect.any(String),
          signature: expect.stringContaining(`keyId="${aliceActor.id}#main-key"`),
        },
        answer: {
          status: 200,
          statusText: "OK",
          headers: { "content-type": expect.stringContaining("application/activity+json") },
        },
      });
      expect(actor.answer.ttfbMs).toBeGreaterThanOrEqual(0);
      expect(actor.answer.totalMs).toBeGreaterThanOrEqual(actor.answer.ttfbMs);

      // A redirect is its own request, with where it sent the next one.
      const port = (redirector.address() as { port: number }).port;
      const moved = await fe(server, alice, "/actor/lookup", {
        body: {
          actorId: aliceActor.id,
          uri: `http://127.0.0.1:${port}${new URL(carol.id).pathname}`,
        },
      });
      const hops = (await moved.json()).exchange.requests;
      expect(hops.map((h: { url: string }) => h.url)).toEqual([
        `http://127.0.0.1:${port}${new URL(carol.id).pathname}`,
        carol.id,
      ]);
      expect(hops[0]).toMatchObject({
        redirectTo: carol.id,
        answer: { status: 301, headers: { location: carol.id, "cache-control": "no-store" } },
      });
      expect(hops[1].headers.signature).toContain(`keyId="${aliceActor.id}#main-key"`);
      // Never a private key: the actor's private JWK is not in the answer.
      const keys = await server.services.db.get<{ rsa_private_jwk: string }>(
        `SELECT rsa_private_jwk FROM actors WHERE id = ?`,
        [aliceActor.id],
      );
      const secret = (JSON.parse(keys!.rsa_private_jwk) as { d: string }).d;
      expect(JSON.stringify(body) + JSON.stringify(hops)).not.toContain(secret);
    } finally {
      redirector.close();
      await remote.close();
    }
  });

  it("answers 200 with raw null and the reason when the fetch fails", async () => {
    const { alice, aliceActor } = await setUp();
    const response = await fe(server, alice, "/actor/lookup?timeout=2", {
      body: { actorId: aliceActor.id, uri: "http://127.0.0.1:1/nothing" },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { raw: null; error: string };
    expect(body.raw).toBeNull();
    expect(body.error.length).toBeGreaterThan(0);
  });

  it("answers 400 when actorId is not an actor of the account", async () => {
    const { alice, bobActor } = await setUp();
    const response = await fe(server, alice, "/actor/lookup", {
      body: { actorId: bobActor.id, uri: bobActor.id },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: "actorId is not an actor of this account" });
  });

  it("answers 422 for a missing uri or a bad timeout", async () => {
    const { alice, aliceActor } = await setUp();
    const missing = await fe(server, alice, "/actor/lookup", { body: { actorId: aliceActor.id } });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      detail: [{ loc: ["body", "uri"], msg: "Field required", type: "missing" }],
    });
    const badTimeout = await fe(server, alice, "/actor/lookup?timeout=soon", {
      body: { actorId: aliceActor.id, uri: "x" },
    });
    expect(badTimeout.status).toBe(422);
    expect((await badTimeout.json()).detail[0].loc).toEqual(["query", "timeout"]);
  });
});

describe("POST /fe/actor/trigger/{method}", () => {
  it("answers 202 null and reports an unknown method on the error stream", async () => {
    const { alice, aliceActor } = await setUp();
    const errors = await openSse(`${server.url}/fe/account/stream/error`, {
      Authorization: `Bearer ${alice}`,
    });
    await errors.waitFor((f) => f.comment === "connected");
    const response = await fe(server, alice, "/actor/trigger/frobnicate", {
      body: { actor: aliceActor.id, x: 1 },
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("null");
    const [frame] = await errors.waitForData(1);
    const event = JSON.parse(frame!.data!) as {
      message: string[];
      routing_key: string;
      original_message_body: string;
    };
    expect(event.routing_key).toBe("frobnicate");
    expect(event.message.join(" ")).toMatch(/unknown method/);
    expect(JSON.parse(event.original_message_body)).toEqual({ actor: aliceActor.id, x: 1 });
    errors.close();
  });

  it("hands a known method its body: update_actor renames the actor", async () => {
    const { alice, aliceActor } = await setUp();
    const response = await fe(server, alice, "/actor/trigger/update_actor", {
      body: { actor: aliceActor.id, profile: { name: "Alice Liddell" } },
    });
    expect(response.status).toBe(202);
    await expect
      .poll(
        async () =>
          (
            (await (
              await fetch(aliceActor.id, { headers: { Accept: "application/activity+json" } })
            ).json()) as { name?: string }
          ).name,
        {
          timeout: 10_000,
        },
      )
      .toBe("Alice Liddell");
  });

  it("answers 400 when actor is not the account's and 422 without an actor", async () => {
    const { alice, bobActor } = await setUp();
    const foreign = await fe(server, alice, "/actor/trigger/send_message", {
      body: { actor: bobActor.id, data: {} },
    });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toEqual({ detail: "actor is not an actor of this account" });
    const missing = await fe(server, alice, "/actor/trigger/send_message", { body: { data: {} } });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      detail: [{ loc: ["body", "actor"], msg: "Field required", type: "missing" }],
    });
  });
});
