import { describe, expect, it } from "vitest";
import { parseActivityPub } from "./parse.ts";

describe("parseActivityPub", () => {
  it("normalises an activity: actor and object as ids, to/cc as arrays, embedded object pulled out", () => {
    const parsed = parseActivityPub({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: "https://a.example/c/1",
      type: "Create",
      actor: { id: "https://a.example/u/alice", type: "Person" },
      to: "https://www.w3.org/ns/activitystreams#Public",
      object: {
        id: "https://a.example/n/1",
        type: "Note",
        content: "hi",
        attributedTo: "https://a.example/u/alice",
        cc: "https://b.example/u/bob",
      },
    });
    expect(parsed.activity).toMatchObject({
      type: "Create",
      id: "https://a.example/c/1",
      actor: "https://a.example/u/alice",
      object: "https://a.example/n/1",
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      cc: [],
    });
    expect(parsed.object).toMatchObject({
      type: "Note",
      id: "https://a.example/n/1",
      content: "hi",
      to: [],
      cc: ["https://b.example/u/bob"],
    });
  });

  it("keeps an embedded Follow of an Undo as the object, with its own actor and object ids", () => {
    const parsed = parseActivityPub({
      type: "Undo",
      id: "u1",
      actor: "https://a.example/u/alice",
      object: {
        type: "Follow",
        id: "f1",
        actor: "https://a.example/u/alice",
        object: "https://b.example/u/bob",
      },
    });
    expect(parsed.activity?.object).toBe("f1");
    expect(parsed.object).toMatchObject({
      type: "Follow",
      actor: "https://a.example/u/alice",
      object: "https://b.example/u/bob",
    });
  });

  it("answers actor for an actor document and collection for a collection", () => {
    const actor = parseActivityPub({
      id: "https://a.example/u/alice",
      type: "Person",
      inbox: "https://a.example/u/alice/inbox",
      endpoints: { sharedInbox: "https://a.example/inbox" },
    });
    expect(actor).toEqual({
      actor: expect.objectContaining({
        id: "https://a.example/u/alice",
        sharedInbox: "https://a.example/inbox",
      }),
    });
    const collection = parseActivityPub({
      id: "https://a.example/c",
      type: "OrderedCollection",
      totalItems: 2,
      orderedItems: ["x", "y"],
    });
    expect(collection).toEqual({
      collection: {
        type: "OrderedCollection",
        id: "https://a.example/c",
        totalItems: 2,
        items: ["x", "y"],
      },
    });
  });

  it("treats an unknown type with an actor and an object as an activity", () => {
    expect(
      parseActivityPub({
        type: "Wave",
        actor: "https://a.example/u/a",
        object: "https://b.example/u/b",
      }).activity?.type,
    ).toBe("Wave");
  });

  it("answers {} for what is not a JSON object", () => {
    expect(parseActivityPub(null)).toEqual({});
    expect(parseActivityPub(["x"])).toEqual({});
  });
});
