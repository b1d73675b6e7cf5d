import { describe, expect, it } from "vitest";
import { checkAgainstSchema, draftOf, pathInWords, schemaOf } from "./schema-check.ts";

// What Corral's server publishes for send_message (zod's toJSONSchema, draft 2020-12).
const sendMessage = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    data: { type: "object", propertyNames: { type: "string" }, additionalProperties: {} },
  },
  required: ["data"],
  additionalProperties: {},
};

const updateActor = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    profile: { type: "object" },
    autoFollow: { type: "boolean" },
    actions: {
      type: "array",
      items: { type: "object", required: ["action"], properties: { action: { enum: ["rename"] } } },
    },
  },
  additionalProperties: {},
};

describe("checking the data box against a method's schema", () => {
  it("passes a body the schema allows", () => {
    expect(checkAgainstSchema(sendMessage, { data: { type: "Note" } })).toEqual({ kind: "passed" });
  });

  it("names a missing property by its path", () => {
    expect(checkAgainstSchema(sendMessage, { type: "Create", actor: "x" })).toEqual({
      kind: "failed",
      problems: [{ path: "data", words: "is missing" }],
    });
  });

  it("names each problem once, by its path, in words, leaving out the wrappers around it", () => {
    const check = checkAgainstSchema(updateActor, {
      profile: [],
      autoFollow: "yes",
      actions: [{ name: "x" }, { action: "fly" }],
    });
    expect(check).toEqual({
      kind: "failed",
      problems: [
        { path: "profile", words: "must be an object, not an array" },
        { path: "autoFollow", words: "must be true or false, not a string" },
        { path: "actions[0].action", words: "is missing" },
        { path: "actions[1].action", words: 'must be one of ["rename"]' },
      ],
    });
  });

  it("says a property a closed schema does not allow is not allowed", () => {
    const closed = {
      type: "object",
      properties: { a: { type: "string" } },
      additionalProperties: false,
    };
    expect(checkAgainstSchema(closed, { a: "x", "@context": 1 })).toEqual({
      kind: "failed",
      problems: [{ path: '["@context"]', words: "is not allowed here" }],
    });
  });

  it("names a publish's missing type and its id the server assigns (Corral's publish_object)", () => {
    const publish = {
      type: "object",
      properties: {
        data: {
          type: "object",
          required: ["type"],
          properties: { type: { type: "string" }, id: false },
        },
      },
      required: ["data"],
    };
    expect(checkAgainstSchema(publish, { data: { id: "x", content: "hi" } })).toEqual({
      kind: "failed",
      problems: [
        { path: "data.type", words: "is missing" },
        { path: "data.id", words: "is not allowed here" },
      ],
    });
  });

  it("says the body matches none of an anyOf's shapes, not each shape's failure", () => {
    const either = { anyOf: [{ required: ["data"] }, { required: ["profile"] }] };
    expect(checkAgainstSchema(either, {})).toEqual({
      kind: "failed",
      problems: [{ path: "", words: "matches none of the shapes the method allows" }],
    });
  });

  it("checks nothing for a method without a schema (cattle_grid's)", () => {
    const info = { routing_key: "send_message", module: "cattle_grid", description: null };
    expect(schemaOf(info)).toBeNull();
    expect(checkAgainstSchema(schemaOf(info), { anything: 1 })).toEqual({ kind: "unchecked" });
  });

  it("reads the draft from $schema, 2020-12 when none is named", () => {
    expect(draftOf(sendMessage)).toBe("2020-12");
    expect(draftOf({ $schema: "http://json-schema.org/draft-07/schema#" })).toBe("7");
    expect(draftOf({ $schema: "http://json-schema.org/draft-04/schema#" })).toBe("4");
    expect(draftOf({})).toBe("2020-12");
  });

  it("writes paths as a person does", () => {
    expect(pathInWords(["data", "object", "to", "0"])).toBe("data.object.to[0]");
    expect(pathInWords(["data", "@context"])).toBe('data["@context"]');
  });
});
