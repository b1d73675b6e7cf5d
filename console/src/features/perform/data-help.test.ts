import { describe, expect, it } from "vitest";
import { looksLikeBareActivity, otherActorIn, putUnderData, takesData } from "./data-help.ts";

const alice = "https://us.example/actor/alice";
const bob = "https://us.example/actor/bob";

describe("help with the data box", () => {
  it("knows a method takes data from its schema, else from its name", () => {
    expect(takesData("send_message", { properties: { data: { type: "object" } } })).toBe(true);
    expect(takesData("update_actor", { properties: { profile: {} } })).toBe(false);
    expect(takesData("send_message", null)).toBe(true);
    expect(takesData("update_actor", null)).toBe(false);
  });

  it("sees an activity typed as the whole box, and puts it under data", () => {
    const note = { type: "Create", object: { type: "Note" } };
    expect(looksLikeBareActivity(note)).toBe(true);
    expect(looksLikeBareActivity({ data: note })).toBe(false);
    expect(looksLikeBareActivity({ profile: {} })).toBe(false);
    expect(putUnderData(note)).toEqual({ data: note });
  });

  it("names the actor data.actor claims when it is not the one acting", () => {
    expect(otherActorIn({ data: { actor: bob } }, alice)).toBe(bob);
    expect(otherActorIn({ data: { actor: { id: bob, type: "Person" } } }, alice)).toBe(bob);
    expect(otherActorIn({ data: { actor: alice } }, alice)).toBeNull();
    expect(otherActorIn({ data: { type: "Create" } }, alice)).toBeNull();
    expect(otherActorIn({ profile: {} }, alice)).toBeNull();
  });
});
