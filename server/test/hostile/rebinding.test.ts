// Issue 16, finding 2: DNS rebinding passed the private-address rule. A name resolving to a
// public address when checked and to 127.0.0.1 when connected reached a loopback listener, for
// lookups and for deliveries. Rule (docs/server-guide.md#untrusted-input): the private-address rule holds
// for the address actually connected to, not only the one first resolved.
//
// The server resolves names through `startServer({ resolveHost })` (default: the system's DNS),
// and only when connecting: the connection's own lookup checks every answer and connects to one
// it checked (src/activitypub/pinned-lookup.ts, whose unit test plays the rebinding itself,
// public answer then private, without connecting anywhere). Nothing here leaves the machine:
// every answer the test's resolver gives is 127.0.0.1, and the name `rebind.test` exists only
// in that resolver. Refused without --allow-private-addresses, with no request reaching the
// listener; reached with it, which proves the connection resolved through the seam.

import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { ResolveHost } from "../../src/activitypub/pinned-lookup.ts";
import { freshDatabaseUrl } from "../fresh.ts";
import { addAccount, addActor, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { startRemoteActor, type RemoteActor } from "./remote-actor.ts";
import { watchStream } from "./streams.ts";

const NAME = "rebind.test";

/** Answers 127.0.0.1 for NAME, and nothing else; records every question. */
function loopbackResolver() {
  const asked: string[] = [];
  const resolve: ResolveHost = async (hostname) => {
    asked.push(hostname);
    if (hostname !== NAME) throw new Error(`test resolver: unknown name ${hostname}`);
    return ["127.0.0.1"];
  };
  return { asked, resolve };
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function track<T extends { close(): Promise<void> }>(started: Promise<T>): Promise<T> {
  const value = await started;
  running.push(value);
  return value;
}

async function lookupAs(server: TestServer, uri: string) {
  await addAccount(server, "looker");
  const token = await signIn(server, "looker");
  const actor = (await addActor(server, token)).id;
  const response = await fe(server, token, "/actor/lookup?timeout=3", {
    body: { actorId: actor, uri },
  });
  expect(response.status).toBe(200);
  return response.json();
}

describe("the private-address rule holds for the address actually connected to", () => {
  it("a lookup of a name answering 127.0.0.1 is refused on connecting, and nothing reaches the listener", async () => {
    const remote = await track(startRemoteActor({ name: NAME }));
    const resolver = loopbackResolver();
    const server = await track(
      startTestServer({ allowPrivateAddresses: false, resolveHost: resolver.resolve }),
    );
    expect(await lookupAs(server, remote.actorId)).toEqual({
      raw: null,
      error: expect.stringMatching(
        /refused private address rebind\.test \(127\.0\.0\.1\).*--allow-private-addresses/,
      ),
      kind: "blocked",
      url: remote.actorId,
      // The exchange shows the request as prepared, and that no answer came: it was never sent.
      exchange: {
        requests: [
          expect.objectContaining({
            url: remote.actorId,
            answer: null,
            error: expect.stringMatching(/^refused private address/),
          }),
        ],
      },
    });
    expect(resolver.asked).toEqual([NAME]);
    expect(remote.requests).toEqual([]);
  });

  it("with --allow-private-addresses the same lookup connects through the resolver", async () => {
    const remote = await track(startRemoteActor({ name: NAME }));
    const resolver = loopbackResolver();
    const server = await track(
      startTestServer({ allowPrivateAddresses: true, resolveHost: resolver.resolve }),
    );
    expect(await lookupAs(server, remote.actorId)).toMatchObject({
      raw: { id: remote.actorId, type: "Person" },
    });
    expect(resolver.asked).toContain(NAME);
    expect(remote.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /actor"]);
  });

  it.each([
    [false, "is refused"],
    [true, "connects through the resolver"],
  ])(
    "Fedify's own fetch of a stored activity's JSON-LD context, private addresses allowed: %s, %s",
    async (allowPrivateAddresses) => {
      const remote = await track(startRemoteActor({ name: NAME }));
      remote.serve(
        "/context",
        JSON.stringify({ "@context": { mood: "https://example.invalid/ns#mood" } }),
      );
      const resolver = loopbackResolver();
      const server = await track(
        startTestServer({ allowPrivateAddresses, resolveHost: resolver.resolve }),
      );
      await addAccount(server, "publisher");
      const token = await signIn(server, "publisher");
      const actor = (await addActor(server, token)).id;
      const context = ["https://www.w3.org/ns/activitystreams", `${remote.base}/context`];
      const published = await fe(server, token, "/actor/trigger/publish_activity", {
        body: {
          actor,
          data: { "@context": context, type: "Create", actor, object: "x", mood: "ok" },
        },
      });
      expect(published.status).toBe(202);
      const accept = { Accept: "application/activity+json" };
      await until(async () => {
        const outbox = await fetch(`${actor}/outbox`, { headers: accept });
        return ((await outbox.json()) as { totalItems?: number }).totalItems === 1;
      });
      // Listing the outbox page reads each stored activity with Fedify, which loads its context.
      const page = await fetch(`${actor}/outbox?cursor=0`, { headers: accept });
      expect(page.status).toBe(200);
      const contextRequests = remote.requests.filter((r) => r.url === "/context");
      if (allowPrivateAddresses) {
        expect(resolver.asked).toContain(NAME);
        expect(contextRequests.length).toBeGreaterThan(0);
      } else {
        expect(resolver.asked).toEqual([NAME]);
        expect(remote.requests).toEqual([]);
      }
    },
  );

  it("a delivery to a follower's inbox whose name answers 127.0.0.1 is refused, and reaches it only with the flag", async () => {
    // The follower: its id on 127.0.0.1, its inbox named rebind.test (same listener).
    const remote: RemoteActor = await track(startRemoteActor({ inboxName: NAME }));
    const database = freshDatabaseUrl();

    // With private addresses allowed, the follow: the Accept reaches the inbox through the seam.
    const allowed = loopbackResolver();
    const first: TestServer = await startTestServer({
      database,
      allowPrivateAddresses: true,
      resolveHost: allowed.resolve,
    });
    let alice: string;
    let token: string;
    try {
      await addAccount(first, "alice");
      token = await signIn(first, "alice");
      alice = (await addActor(first, token)).id;
      await fe(first, token, "/actor/trigger/update_actor", {
        body: { actor: alice, autoFollow: true },
      });
      await until(async () => {
        const document = await fetch(alice, { headers: { Accept: "application/activity+json" } });
        return (
          ((await document.json()) as { manuallyApprovesFollowers?: boolean })
            .manuallyApprovesFollowers === false
        );
      });
      const follow = JSON.stringify({
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${remote.actorId}/follows/${randomUUID()}`,
        type: "Follow",
        actor: remote.actorId,
        object: alice,
      });
      expect((await fetch(await remote.signedPost(`${alice}/inbox`, follow))).status).toBe(202);
      await until(() => remote.requests.some((r) => r.method === "POST"), 10_000);
      expect(allowed.asked).toContain(NAME);
    } finally {
      await first.close();
    }

    // The same database without the flag: the delivery ends in a refusal, never at loopback.
    remote.requests.length = 0;
    const resolver = loopbackResolver();
    const server = await track(
      startTestServer({ database, allowPrivateAddresses: false, resolveHost: resolver.resolve }),
    );
    const errors = await watchStream(server.url, token, "error");
    try {
      const response = await fe(server, token, "/actor/trigger/send_message", {
        body: {
          actor: alice,
          data: { type: "Create", actor: alice, to: [`${alice}/followers`], object: "x" },
        },
      });
      expect(response.status).toBe(202);
      const error = await errors.next((e) =>
        JSON.stringify(e).includes(`${NAME}:${remote.port}/inbox`),
      );
      expect(JSON.stringify(error)).toMatch(
        /refused private address rebind\.test \(127\.0\.0\.1\)/,
      );
      expect(resolver.asked).toContain(NAME);
      expect(remote.requests).toEqual([]);
    } finally {
      errors.close();
    }
  }, 60_000);
});

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
