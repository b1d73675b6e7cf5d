import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccountWithActor, waitForEvent } from "./servers.ts";
import { startTestServer, type TestServer } from "../server.ts";

let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const followers = (server: TestServer, actorId: string) =>
  server.services.db.all<{ follower_id: string }>(
    `SELECT follower_id FROM followers WHERE actor_id = ?`,
    [actorId],
  );
const following = (server: TestServer, actorId: string) =>
  server.services.db.all<{ target_id: string; accepted: number }>(
    `SELECT target_id, accepted FROM following WHERE actor_id = ?`,
    [actorId],
  );

describe("follows", () => {
  it("accepts a Follow at once when autoFollow is on, and both sides record it", async () => {
    const [alice, bob] = await Promise.all([addAccountWithActor(a), addAccountWithActor(b)]);
    await bob.run("update_actor", { autoFollow: true });
    const follow = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${alice.actorId}/follows/1`,
      type: "Follow",
      actor: alice.actorId,
      object: bob.actorId,
      to: [bob.actorId],
    };
    await alice.run("send_message", { data: follow });

    await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.parsed.activity?.type === "Follow",
    );
    const accept = await waitForEvent(
      a.services,
      alice.accountId,
      "incoming",
      (e) => e.data.parsed.activity?.type === "Accept",
    );
    expect(accept.data.raw).toMatchObject({ actor: bob.actorId, object: follow });
    await expect
      .poll(() => following(a, alice.actorId))
      .toEqual([{ target_id: bob.actorId, accepted: 1 }]);
    expect(await followers(b, bob.actorId)).toEqual([{ follower_id: alice.actorId }]);

    // Undo removes the follower.
    await alice.run("send_message", {
      data: {
        id: `${alice.actorId}/undo/1`,
        type: "Undo",
        actor: alice.actorId,
        object: follow,
        to: [bob.actorId],
      },
    });
    await expect.poll(() => followers(b, bob.actorId)).toEqual([]);
    expect(await following(a, alice.actorId)).toEqual([]);
  });

  it("leaves a Follow for the operator without autoFollow; an Accept sent with send_message records it", async () => {
    const [alice, bob] = await Promise.all([addAccountWithActor(a), addAccountWithActor(b)]);
    const follow = {
      id: `${bob.actorId}/follows/2`,
      type: "Follow",
      actor: bob.actorId,
      object: alice.actorId,
      to: [alice.actorId],
    };
    await bob.run("send_message", { data: follow });
    const arrived = await waitForEvent(
      a.services,
      alice.accountId,
      "incoming",
      (e) => e.data.raw.id === follow.id,
    );
    expect(arrived.actor).toBe(alice.actorId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await followers(a, alice.actorId)).toEqual([]);
    expect(await following(b, bob.actorId)).toEqual([{ target_id: alice.actorId, accepted: 0 }]);

    await alice.run("send_message", {
      data: {
        id: `${alice.actorId}/accepts/2`,
        type: "Accept",
        actor: alice.actorId,
        object: arrived.data.raw,
        to: [bob.actorId],
      },
    });
    expect(await followers(a, alice.actorId)).toEqual([{ follower_id: bob.actorId }]);
    await expect
      .poll(() => following(b, bob.actorId))
      .toEqual([{ target_id: alice.actorId, accepted: 1 }]);

    // Messages to alice's followers now reach bob.
    await alice.run("send_message", {
      data: {
        id: `${alice.actorId}/notes/to-followers`,
        type: "Create",
        actor: alice.actorId,
        to: [`${alice.actorId}/followers`],
        object: { type: "Note", content: "hello followers" },
      },
    });
    await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.raw.id === `${alice.actorId}/notes/to-followers`,
    );
  });

  it("a Reject of our Follow removes it from following", async () => {
    const [alice, bob] = await Promise.all([addAccountWithActor(a), addAccountWithActor(b)]);
    const follow = {
      id: `${bob.actorId}/follows/3`,
      type: "Follow",
      actor: bob.actorId,
      object: alice.actorId,
      to: [alice.actorId],
    };
    await bob.run("send_message", { data: follow });
    await waitForEvent(a.services, alice.accountId, "incoming", (e) => e.data.raw.id === follow.id);
    await alice.run("send_message", {
      data: {
        id: `${alice.actorId}/rejects/3`,
        type: "Reject",
        actor: alice.actorId,
        object: follow,
        to: [bob.actorId],
      },
    });
    await expect.poll(() => following(b, bob.actorId)).toEqual([]);
  });
});
