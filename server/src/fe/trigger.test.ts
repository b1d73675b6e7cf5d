import { afterEach, describe, expect, it } from "vitest";
import { methodInformation, methods } from "../methods/catalog.ts";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp() {
  const started = await startTestServer();
  server = started;
  const account = await addAccount(started, "alice");
  const token = await signIn(started, "alice");
  const actor = await addActor(started, token, "alice");
  return { token, actor, accountId: account.id };
}

describe("POST /fe/actor/trigger/{method} with an invalid body", () => {
  it("answers 422 with the path of each problem, and nothing runs", async () => {
    const { token, actor, accountId } = await setUp();
    const notObject = await fe(server!, token, "/actor/trigger/send_message", {
      body: { actor: actor.id, data: ["not", "an", "object"] },
    });
    expect(notObject.status).toBe(422);
    expect(await notObject.json()).toEqual({
      detail: [
        { loc: ["body", "data"], msg: "Input should be a valid dictionary", type: "dict_type" },
      ],
    });
    const badAction = await fe(server!, token, "/actor/trigger/update_actor", {
      body: { actor: actor.id, actions: [{ action: "update_property_value", key: "x" }] },
    });
    expect(badAction.status).toBe(422);
    expect(await badAction.json()).toEqual({
      detail: [
        {
          loc: ["body", "actions", 0, "value"],
          msg: 'action update_property_value needs "value" as a string',
          type: "value_error",
        },
      ],
    });
    await server!.services.tasks?.drain();
    expect(await server!.services.events.lastSeq(accountId, "error")).toBe(0);
    expect(await server!.services.events.lastSeq(accountId, "outgoing")).toBe(0);
  });

  it("checks a publish_activity's data.actor against the body's actor", async () => {
    const { token, actor } = await setUp();
    const response = await fe(server!, token, "/actor/trigger/publish_activity", {
      body: { actor: actor.id, data: { type: "Like", actor: "https://x.example/mallory" } },
    });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toEqual([
      {
        loc: ["body", "data", "actor"],
        msg: `"data.actor" must be ${actor.id}`,
        type: "value_error",
      },
    ]);
  });
});

describe("methodInformation", () => {
  it("publishes each method's body as JSON Schema with an example that fits it", () => {
    for (const [index, entry] of methods.entries()) {
      const info = methodInformation[index]!;
      expect(info.schema).toMatchObject({ type: "object" });
      expect(entry.fields.safeParse(info.example).success).toBe(true);
    }
    const publish = methodInformation.find((m) => m.routing_key === "publish_object")!;
    expect(publish.schema).toMatchObject({ required: ["data"] });
  });
});
