import { afterEach, describe, expect, it } from "vitest";
import {
  addAccount,
  addActor,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";

let server: TestServer;
afterEach(() => server?.close());

describe("WebFinger and NodeInfo", () => {
  it("resolves acct:handle@host:port to the actor", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const actor = await addActor(server, await signIn(server, "alice"), "alice");
    const host = new URL(server.url).host;
    const response = await fetch(`${server.url}/.well-known/webfinger?resource=acct:alice@${host}`);
    expect(response.status).toBe(200);
    const jrd = (await response.json()) as {
      subject: string;
      links: Array<{ rel: string; href: string; type?: string }>;
    };
    expect(jrd.subject).toBe(`acct:alice@${host}`);
    expect(jrd.links).toContainEqual({
      rel: "self",
      href: actor.id,
      type: "application/activity+json",
    });
  });

  it("answers 404 for an unknown handle and for a handle on another host", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    await addActor(server, await signIn(server, "alice"), "alice");
    const host = new URL(server.url).host;
    expect(
      (await fetch(`${server.url}/.well-known/webfinger?resource=acct:nobody@${host}`)).status,
    ).toBe(404);
    expect(
      (await fetch(`${server.url}/.well-known/webfinger?resource=acct:alice@elsewhere.example`))
        .status,
    ).toBe(404);
  });

  it("serves NodeInfo 2.1 linked from /.well-known/nodeinfo", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    await addActor(server, await signIn(server, "alice"), "alice");
    const links = (await (await fetch(`${server.url}/.well-known/nodeinfo`)).json()) as {
      links: Array<{ rel: string; href: string }>;
    };
    const link = links.links.find(
      (l) => l.rel === "http://nodeinfo.diaspora.software/ns/schema/2.1",
    )!;
    expect(link.href).toBe(`${server.url}/nodeinfo/2.1`);
    const info = (await (await fetch(link.href)).json()) as Record<string, unknown>;
    expect(info).toMatchObject({
      version: "2.1",
      software: { name: "corral" },
      protocols: ["activitypub"],
      usage: { users: { total: 1 } },
      openRegistrations: false,
    });
  });
});
