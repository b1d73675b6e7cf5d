import { describe, expect, it } from "vitest";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import {
  asActor,
  callPrefill,
  dataFor,
  performSourceOf,
  sendMessagePrefill,
} from "./open-in-perform.ts";

const ours = "http://127.0.0.1:3000/actor/bob";
const create = {
  "@context": "https://www.w3.org/ns/activitystreams",
  id: "https://remote.example/activities/1",
  type: "Create",
  actor: "https://remote.example/users/ann",
  object: { id: "https://remote.example/notes/1", type: "Note", content: "Hi" },
};

function message(data: unknown, stream: StreamMessage["stream"] = "incoming"): StreamMessage {
  return { stream, seq: 0, id: "1", data, activityType: "Create", receivedAt: 0 };
}

describe("Open in Perform", () => {
  it("opens send_message with an incoming activity as data, its id removed, as our actor", () => {
    const source = performSourceOf(
      message({
        actor: ours,
        event_type: "incoming",
        data: { raw: create, parsed: { activity: { ...create, object: create.object.id } } },
      }),
    );
    const { id: _id, ...withoutId } = create;
    expect(source).toEqual({
      kind: "prefill",
      prefill: {
        method: "send_message",
        data: { data: withoutId },
        actor: ours,
        activity: withoutId,
      },
    });
    // The object keeps its id: only the activity needs a new one to be sent again.
    expect(source.kind === "prefill" && source.prefill.data).toMatchObject({
      data: { object: { id: "https://remote.example/notes/1" } },
    });
  });

  it("sends the activity as the actor acting: its actor and its object's attributedTo", () => {
    const note = { ...create.object, attributedTo: create.actor };
    const prefill = sendMessagePrefill(
      message({ actor: ours, data: { raw: { ...create, object: note } } }),
    );
    const { id: _id, ...withoutId } = create;
    expect(dataFor(prefill, ours)).toEqual({
      data: { ...withoutId, actor: ours, object: { ...note, attributedTo: ours } },
    });
  });

  it("gives a Create's embedded object the actor as author, but keeps another's object's author", () => {
    const carol = "https://remote.example/users/carol";
    expect(asActor({ type: "Create", object: { type: "Note" } }, ours)).toEqual({
      type: "Create",
      actor: ours,
      object: { type: "Note", attributedTo: ours },
    });
    const like = {
      type: "Like",
      actor: create.actor,
      object: { type: "Note", attributedTo: carol },
    };
    expect(asActor(like, ours)).toEqual({ ...like, actor: ours });
    const follow = { type: "Follow", actor: create.actor, object: carol };
    expect(asActor(follow, ours)).toEqual({ ...follow, actor: ours });
  });

  it("leaves a call of ours as it was made", () => {
    const prefill = callPrefill("send_message", { actor: ours, data: { actor: "x" } }, null);
    expect(dataFor(prefill, ours)).toEqual({ data: { actor: "x" } });
  });

  it("takes muck_out's parsed activity when the event has no raw one", () => {
    const prefill = sendMessagePrefill(
      message({ actor: ours, data: { parsed: { activity: { id: "x", type: "Like" } } } }),
    );
    expect(prefill.data).toEqual({ data: { type: "Like" } });
  });

  it("opens the call that caused a message carrying a trigger id", () => {
    const event = { actor: ours, trigger_id: "t-1", data: { raw: create } };
    expect(performSourceOf(message(event, "outgoing"))).toEqual({
      kind: "call",
      triggerId: "t-1",
    });
  });

  it("fills a recorded call's method and data, without actor, as the actor that made it", () => {
    expect(callPrefill("update_actor", { actor: ours, profile: { name: "B" } }, null)).toEqual({
      method: "update_actor",
      data: { profile: { name: "B" } },
      actor: ours,
    });
  });
});
