import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookupUri } from "../../src/lookup/lookup.ts";
import { addAccountWithActor, waitForEvent } from "./servers.ts";
import { startTestServer, type TestServer } from "../server.ts";

let a: TestServer;
let b: TestServer;
let alice: Awaited<ReturnType<typeof addAccountWithActor>>;
let bob: Awaited<ReturnType<typeof addAccountWithActor>>;
let eve: Awaited<ReturnType<typeof addAccountWithActor>>;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  [alice, bob, eve] = await Promise.all([
    addAccountWithActor(a, { handle: "alice" }),
    addAccountWithActor(b, { handle: "bob" }),
    addAccountWithActor(b, { handle: "eve" }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe("lookup", () => {
  it("fetches a protected object signed as the chosen actor; unsigned and unaddressed readers are refused", async () => {
    await alice.run("publish_object", {
      data: { type: "Note", content: "for bob only", to: [bob.actorId] },
    });
    const created = await waitForEvent(
      a.services,
      alice.accountId,
      "outgoing",
      (e) => e.data.raw.type === "Create",
    );
    const objectId: string = created.data.raw.object.id;
    expect(objectId.startsWith(`${new URL(alice.actorId).origin}/objects/`)).toBe(true);

    const found = await lookupUri(b.services, { actorId: bob.actorId, uri: objectId });
    expect(found).toMatchObject({
      raw: { id: objectId, type: "Note", content: "for bob only" },
      parsed: { object: { id: objectId, type: "Note" } },
    });

    const unsigned = await fetch(objectId, { headers: { Accept: "application/activity+json" } });
    expect(unsigned.status).toBe(401);

    const refused = await lookupUri(b.services, { actorId: eve.actorId, uri: objectId });
    expect(refused).toEqual({
      raw: null,
      error: expect.stringContaining("403"),
      kind: "http",
      status: 403,
      url: objectId,
    });
  });

  it("resolves acct:user@host and @user@host through WebFinger on a loopback server", async () => {
    const host = new URL(alice.actorId).host;
    for (const handle of [`acct:alice@${host}`, `@alice@${host}`]) {
      const result = await lookupUri(b.services, { actorId: bob.actorId, uri: handle });
      expect(result).toMatchObject({
        raw: { id: alice.actorId },
        parsed: { actor: { id: alice.actorId, inbox: `${alice.actorId}/inbox` } },
      });
    }
  });

  it("answers objects this server hosts locally, keeping other actors' private objects private", async () => {
    const result = await lookupUri(b.services, { actorId: bob.actorId, uri: eve.actorId });
    expect(result).toMatchObject({ raw: { id: eve.actorId, type: "Person" } });
    const followers = await lookupUri(b.services, {
      actorId: bob.actorId,
      uri: `${eve.actorId}/followers`,
    });
    expect(followers).toMatchObject({
      raw: { id: `${eve.actorId}/followers` },
      parsed: { collection: { id: `${eve.actorId}/followers` } },
    });

    await eve.run("publish_object", {
      data: { type: "Note", content: "eve to alice", to: [alice.actorId], bcc: [alice.actorId] },
    });
    const created = await waitForEvent(
      b.services,
      eve.accountId,
      "outgoing",
      (e) => e.data.raw.type === "Create",
    );
    const objectId: string = created.data.raw.object.id;
    expect(await lookupUri(b.services, { actorId: bob.actorId, uri: objectId })).toEqual({
      raw: null,
      error: expect.stringContaining("403"),
      kind: "http",
      status: 403,
      url: objectId,
    });
    const own = await lookupUri(b.services, { actorId: eve.actorId, uri: objectId });
    expect(own).toMatchObject({ raw: { id: objectId, content: "eve to alice" } });
    expect((own.raw as Record<string, unknown>).bcc).toBeUndefined();
  });

  it("follows redirects, checking each hop", async () => {
    const { createServer } = await import("node:http");
    const redirector = createServer((req, res) => {
      res.writeHead(302, {
        Location: req.url === "/to-alice" ? alice.actorId : "http://10.255.255.1/private",
      });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
    try {
      const port = (redirector.address() as { port: number }).port;
      const followed = await lookupUri(b.services, {
        actorId: bob.actorId,
        uri: `http://127.0.0.1:${port}/to-alice`,
      });
      expect(followed).toMatchObject({ raw: { id: alice.actorId } });
    } finally {
      redirector.close();
    }
  });

  it("returns the reason when a fetch fails", async () => {
    const missing = await lookupUri(b.services, {
      actorId: bob.actorId,
      uri: `${a.url}/objects/not-there`,
    });
    expect(missing).toEqual({
      raw: null,
      error: expect.stringMatching(/answered 404 Not Found: .*no object/),
      kind: "http",
      status: 404,
      url: `${a.url}/objects/not-there`,
    });
    const page = await lookupUri(b.services, { actorId: bob.actorId, uri: `${a.url}/some/page` });
    // Whether the console's page or a 404 answers there, the reason names it.
    expect(page).toMatchObject({
      raw: null,
      error: expect.stringMatching(/\/some\/page (answered 404|did not answer JSON \(text\/html)/),
      kind: expect.stringMatching(/^(http|not-json)$/),
    });
    const unknownHandle = await lookupUri(b.services, {
      actorId: bob.actorId,
      uri: `acct:nobody@${new URL(alice.actorId).host}`,
    });
    const aHost = new URL(alice.actorId).host;
    expect(unknownHandle).toMatchObject({
      raw: null,
      error: expect.stringMatching(
        /^WebFinger for acct:nobody@127\.0\.0\.1:\d+: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/webfinger\?resource=\S+ (answered 404|did not answer JSON)/,
      ),
      kind: expect.stringMatching(/^(http|not-json)$/),
      // The scheme the server used: http, for a handle on an http server on loopback.
      url: `http://${aHost}/.well-known/webfinger?resource=${encodeURIComponent(`acct:nobody@${aHost}`)}`,
    });
    expect((unknownHandle as { error: string }).error).not.toContain("https://");
    // On our own host, no WebFinger round trip and no advice about schemes or flags.
    const host = new URL(bob.actorId).host;
    expect(await lookupUri(b.services, { actorId: bob.actorId, uri: `@nobody@${host}` })).toEqual({
      raw: null,
      error: `no actor acct:nobody@${host} on this server`,
      kind: "not-found",
    });
    const bad = await lookupUri(b.services, { actorId: bob.actorId, uri: "ftp://example.com/x" });
    expect(bad).toEqual({ raw: null, error: expect.stringContaining("neither"), kind: "invalid" });
  });

  it("names each failure by its kind: a name that does not resolve, a port nobody listens on", async () => {
    const dns = await lookupUri(b.services, {
      actorId: bob.actorId,
      uri: "http://nowhere.invalid/x",
    });
    expect(dns).toMatchObject({ raw: null, kind: "dns", url: "http://nowhere.invalid/x" });
    const handle = await lookupUri(b.services, {
      actorId: bob.actorId,
      uri: "@bob@nowhere.invalid",
    });
    expect(handle).toMatchObject({ raw: null, kind: "dns" });
    const { createServer } = await import("node:net");
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const refused = await lookupUri(b.services, {
      actorId: bob.actorId,
      uri: `http://127.0.0.1:${port}/x`,
    });
    expect(refused).toMatchObject({ raw: null, kind: "refused" });
  });

  it("honours the timeout", async () => {
    const { createServer } = await import("node:http");
    const slow = createServer(() => {}); // never answers
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const port = (slow.address() as { port: number }).port;
      const started = Date.now();
      const result = await lookupUri(b.services, {
        actorId: bob.actorId,
        uri: `http://127.0.0.1:${port}/x`,
        timeoutMs: 300,
      });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(result).toEqual({
        raw: null,
        error: expect.stringContaining("did not answer within"),
        kind: "timeout",
        seconds: 0.3,
        url: `http://127.0.0.1:${port}/x`,
      });
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it("refuses loopback addresses without --allow-private-addresses", async () => {
    const closed = await startTestServer({ allowPrivateAddresses: false });
    try {
      const carol = await addAccountWithActor(closed);
      const result = await lookupUri(closed.services, {
        actorId: carol.actorId,
        uri: alice.actorId,
      });
      expect(result).toEqual({
        raw: null,
        error: expect.stringMatching(/private address.*--allow-private-addresses/),
        kind: "blocked",
        url: alice.actorId,
      });
    } finally {
      await closed.close();
    }
  });
});
