import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActors, listIdentifiers } from "../../src/actors/index.ts";
import { addAccountWithActor, readEvents, waitForEvent } from "./servers.ts";
import { startTestServer, type TestServer } from "../server.ts";

let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

/** alice on A, followed by bob on B (through autoFollow). */
async function followedPair() {
  const [alice, bob] = await Promise.all([addAccountWithActor(a), addAccountWithActor(b)]);
  await alice.run("update_actor", { autoFollow: true });
  await bob.run("send_message", {
    data: {
      id: `${bob.actorId}/f`,
      type: "Follow",
      actor: bob.actorId,
      object: alice.actorId,
      to: [alice.actorId],
    },
  });
  await waitForEvent(b.services, bob.accountId, "incoming", (e) => e.data.raw.type === "Accept");
  return { alice, bob };
}

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

describe("update_actor", () => {
  it("merges the profile, applies actions, and sends Update to followers only when the document changed", async () => {
    const { alice, bob } = await followedPair();
    const host = new URL(alice.actorId).host;
    await alice.run("update_actor", {
      profile: { name: "Alice A", summary: "<p>hi</p>" },
      actions: [
        { action: "update_property_value", key: "Pronouns", value: "she/her" },
        { action: "add_url", url: "https://alice.example/", media_type: "text/html" },
        { action: "create_identifier", identifier: `acct:alice2@${host}` },
      ],
    });
    const update = await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.raw.type === "Update",
    );
    expect(update.data.raw.object).toMatchObject({
      id: alice.actorId,
      name: "Alice A",
      summary: "<p>hi</p>",
      // Compact JSON-LD: a list of one is the item itself.
      attachment: expect.objectContaining({
        type: "PropertyValue",
        name: "Pronouns",
        value: "she/her",
      }),
    });
    expect(
      (await listIdentifiers(a.services.db, alice.actorId)).map((i) => i.identifier),
    ).toContain(`acct:alice2@${host}`);

    await alice.run("update_actor", { profile: { name: "Alice A" } });
    await alice.run("update_actor", {
      actions: [{ action: "rename", name: "internal name only" }],
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      (await readEvents(b.services, bob.accountId, "incoming")).filter(
        (e) => e.data.raw.type === "Update",
      ),
    ).toHaveLength(1);
    expect(await readEvents(a.services, alice.accountId, "error")).toEqual([]);
  });

  it("reports a bad action on the error stream and changes nothing", async () => {
    const alice = await addAccountWithActor(a);
    await alice.run("update_actor", {
      profile: { name: "Kept?" },
      actions: [{ action: "update_property_value", key: "x" }],
    });
    await alice.run("update_actor", { actions: [{ action: "fly" }] });
    const errors = await readEvents(a.services, alice.accountId, "error");
    expect(errors.map((e) => e.message[0])).toEqual([
      'update_actor: action update_property_value needs "value" as a string',
      'update_actor: unknown action "fly"',
    ]);
    const [actor] = await listActors(a.services.db, alice.accountId);
    expect(actor?.profile.name).toBeUndefined();
  });
});

describe("delete_actor", () => {
  it("sends Delete to followers, then the actor answers a Tombstone with 410 and leaves the account", async () => {
    const { alice, bob } = await followedPair();
    await alice.run("delete_actor", {});
    const deleted = await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.raw.type === "Delete",
    );
    expect(deleted.data.raw).toMatchObject({ actor: alice.actorId, object: alice.actorId });
    const response = await fetch(alice.actorId, {
      headers: { Accept: "application/activity+json" },
    });
    expect(response.status).toBe(410);
    expect(await response.json()).toMatchObject({ type: "Tombstone", id: alice.actorId });
    expect(await listActors(a.services.db, alice.accountId)).toEqual([]);
  });
});

describe("publish_object and publish_activity", () => {
  it("assigns ids on the actor's origin, stores them so they dereference, and sends them", async () => {
    const { alice, bob } = await followedPair();
    await alice.run("publish_object", {
      data: {
        type: "Note",
        content: "public note",
        to: [PUBLIC],
        cc: [`${alice.actorId}/followers`],
      },
    });
    const create = await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.raw.type === "Create",
    );
    const note = create.data.raw.object;
    expect(note).toMatchObject({
      type: "Note",
      content: "public note",
      attributedTo: alice.actorId,
    });
    expect(note.id.startsWith(`${new URL(alice.actorId).origin}/objects/`)).toBe(true);
    // What a roboherd bot's incoming_create handler is given (its EmbeddedObject).
    expect(create.data.parsed.embedded_object).toMatchObject({
      id: note.id,
      attributedTo: alice.actorId,
      content: "public note",
    });
    const fetched = await fetch(note.id, { headers: { Accept: "application/activity+json" } });
    expect(fetched.headers.get("content-type")).toMatch(/application\/activity\+json/);
    expect(await fetched.json()).toEqual(note);

    await alice.run("publish_activity", {
      data: { type: "Like", actor: alice.actorId, object: note.id, to: [bob.actorId] },
    });
    const like = await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.raw.type === "Like",
    );
    expect(like.data.raw.id.startsWith(`${new URL(alice.actorId).origin}/objects/`)).toBe(true);
    expect(like.data.parsed.activity).toMatchObject({
      type: "Like",
      actor: alice.actorId,
      object: note.id,
      to: [bob.actorId],
    });
  });

  it("delivers to bcc without revealing it, neither on the Create nor on its object", async () => {
    const [alice, bob] = await Promise.all([addAccountWithActor(a), addAccountWithActor(b)]);
    await alice.run("publish_object", {
      data: { type: "Note", content: "blind", bcc: [bob.actorId] },
    });
    const create = await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.raw.type === "Create",
    );
    expect(create.data.raw.bcc).toBeUndefined();
    expect(create.data.raw.object).toMatchObject({ content: "blind" });
    expect(create.data.raw.object.bcc).toBeUndefined();
  });

  it("refuses data with an id, an object attributed to someone else, or an activity whose actor is someone else", async () => {
    const alice = await addAccountWithActor(a);
    await alice.run("publish_object", { data: { id: "https://x.example/1", type: "Note" } });
    // cattle_grid's simple_storage refuses it too: the Create would speak for another author.
    await alice.run("publish_object", {
      data: { type: "Note", content: "forged", attributedTo: "https://x.example/mallory" },
    });
    await alice.run("publish_activity", {
      data: { type: "Like", actor: "https://x.example/mallory", object: "https://x.example/1" },
    });
    const errors = await readEvents(a.services, alice.accountId, "error");
    expect(errors.map((e) => e.message[0])).toEqual([
      'publish_object: "data" must not have an id; the server assigns it',
      `publish_object: "data.attributedTo" must be ${alice.actorId}`,
      `publish_activity: "data.actor" must be ${alice.actorId}`,
    ]);
    expect(await readEvents(a.services, alice.accountId, "outgoing")).toEqual([]);
  });
});
