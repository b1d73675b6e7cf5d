// Issue 24: Corral fetched senders' keys unsigned, so every activity from a peer that answers an
// unsigned GET of an actor with 401 (cattle_grid, GoToSocial, Mastodon in secure mode) was
// refused. Rule (docs/server-guide.md#federation): every GET the server makes on its own account is
// signed, by the addressed actor or an instance actor served to anyone, and never loops.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccount, addActor, signIn, startTestServer, type TestServer } from "../server.ts";
import { startRemoteActor, type RemoteActor } from "../hostile/remote-actor.ts";
import { watchStream, type StreamWatch } from "../hostile/streams.ts";

let server: TestServer;
let secure: RemoteActor;
let closed: RemoteActor;
let token: string;
let actor: string;
let incoming: StreamWatch;

beforeAll(async () => {
  [server, secure, closed] = await Promise.all([
    startTestServer(),
    startRemoteActor({ authorizedFetch: true }),
    startRemoteActor({ refuseSigned: true }),
  ]);
  await addAccount(server, "keeper");
  token = await signIn(server, "keeper");
  actor = (await addActor(server, token)).id;
  incoming = await watchStream(server.url, token, "incoming");
});
afterAll(async () => {
  incoming?.close();
  await Promise.all([server?.close(), secure?.close(), closed?.close()]);
});

function note(from: RemoteActor, to: string) {
  return JSON.stringify({
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${from.actorId}/activities/${randomUUID()}`,
    type: "Create",
    actor: from.actorId,
    to: [to],
    object: { type: "Note", content: "signed fetch" },
  });
}

const instanceActor = () => `${server.url}/actor/instance`;

describe("key fetches are signed", () => {
  it("accepts an activity from a peer that serves its key only to signed GETs", async () => {
    const body = note(secure, actor);
    const response = await fetch(await secure.signedPost(`${actor}/inbox`, body));
    expect(response.status).toBe(202);
    const id = (JSON.parse(body) as { id: string }).id;
    const event = await incoming.next((e) => e.data.raw.id === id);
    expect(event.data.raw).toEqual(JSON.parse(body));
    // The peer checked our signature by fetching our instance actor's key, unsigned.
    expect(secure.verifiedGetters).toContain(instanceActor());
  });

  it("accepts one through the shared inbox too, the key now cached", async () => {
    const gets = secure.requests.filter((r) => r.method === "GET").length;
    const body = note(secure, actor);
    const response = await fetch(await secure.signedPost(`${server.url}/inbox`, body));
    expect(response.status).toBe(202);
    const id = (JSON.parse(body) as { id: string }).id;
    await incoming.next((e) => e.data.raw.id === id);
    expect(secure.requests.filter((r) => r.method === "GET").length).toBe(gets);
  });

  it("serves the instance actor, with its key, to an unsigned GET", async () => {
    const response = await fetch(instanceActor(), {
      headers: { Accept: "application/activity+json" },
    });
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document.type).toBe("Application");
    expect(document.preferredUsername).toBe(new URL(server.url).host);
    expect(document.publicKey).toMatchObject({
      id: `${instanceActor()}#main-key`,
      owner: instanceActor(),
    });
  });

  it("tries unsigned once when a peer refuses the signed fetch", async () => {
    const body = note(closed, actor);
    const response = await fetch(await closed.signedPost(`${actor}/inbox`, body));
    expect(response.status).toBe(202);
    const gets = closed.requests.filter((r) => r.method === "GET" && r.url === "/actor");
    expect(gets.map((r) => typeof r.headers.signature)).toEqual(["string", "undefined"]);
  });

  it("the instance actor is no account's: the account still lists only its own actor", async () => {
    const response = await fetch(`${server.url}/fe/account/info`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const info = (await response.json()) as { actors: { id: string }[] };
    expect(info.actors.map((a) => a.id)).toEqual([actor]);
  });
});
