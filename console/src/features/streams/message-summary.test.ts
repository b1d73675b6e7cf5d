import { describe, expect, it } from "vitest";
import type { StreamMessage, StreamType } from "../../lib/streams/stream-store.ts";
import { readActivityType } from "../../lib/streams/stream-activity-types.ts";
import { readDeliveryState, shortenActor, summarise } from "./message-summary.ts";

function message(
  data: unknown,
  stream: StreamType = "incoming",
  activityType: string | null = null,
) {
  const receivedAt = new Date(2026, 10, 25, 9, 5, 7).getTime();
  return { stream, seq: 0, id: null, data, activityType, receivedAt } satisfies StreamMessage;
}

describe("message summary", () => {
  it("shows an unknown arrival time as --:--:--", () => {
    expect(summarise({ ...message({}), receivedAt: null }, {}).time).toBe("--:--:--");
  });

  it("takes the activity type, else the error's routing key, else a dash", () => {
    expect(summarise(message({}, "incoming", "Follow"), {}).type).toBe("Follow");
    expect(summarise(message({ routing_key: "no_such_method" }, "error"), {}).type).toBe(
      "no_such_method",
    );
    expect(summarise(message({ x: 1 }), {}).type).toBe("—");
  });

  it("shortens the activity's actor to @name@host when the name is known", () => {
    const known = { "https://corral.example/actor/abc": "@alice@corral.example" };
    expect(shortenActor("https://corral.example/actor/abc", known)).toBe("@alice@corral.example");
    expect(shortenActor("https://m.example/users/bob", {})).toBe("@bob@m.example");
    expect(shortenActor({ id: "https://x.example/p/1", preferredUsername: "carol" }, {})).toBe(
      "@carol@x.example",
    );
    expect(shortenActor("https://x.example/p/1", {})).toBe("x.example/p/1");
    expect(shortenActor(undefined, {})).toBeNull();
    const data = { data: { parsed: { activity: { actor: "https://m.example/users/bob" } } } };
    expect(summarise(message(data), {}).who).toBe("@bob@m.example");
  });

  it("names remote and local senders alike by @preferredUsername@host, never a display name", () => {
    const local = "http://127.0.0.1:3000/actor/Ab12";
    const remote = "http://127.0.0.2:3001/actor/Fs3y";
    const raw = (actor: string) => ({ data: { raw: { type: "Create", actor }, parsed: {} } });
    // The server's actor_info about the sender, whatever form its handle takes.
    const withInfo = (actor: string, handle: string) => ({
      ...raw(actor),
      actor_info: { id: actor, handle, name: "WB Alpha" },
    });
    expect(summarise(message(withInfo(remote, "bob")), {}).who).toBe("@bob@127.0.0.2:3001");
    expect(summarise(message(withInfo(remote, "acct:bob@127.0.0.2:3001")), {}).who).toBe(
      "@bob@127.0.0.2:3001",
    );
    const nested = { data: { ...raw(remote).data, actor_info: { id: remote, handle: "bob" } } };
    expect(summarise(message(nested), {}).who).toBe("@bob@127.0.0.2:3001");
    // actor_info about someone else does not name the sender.
    expect(summarise(message({ ...withInfo(remote, "bob"), ...raw(local) }), {}).who).toBe(
      "127.0.0.1:3000/actor/Ab12",
    );
    // A handle learned from the actor's document (never the account's display name).
    const known = { [local]: "@alpha@127.0.0.1:3000" };
    expect(summarise(message(raw(local)), known).who).toBe("@alpha@127.0.0.1:3000");
    // An embedded actor document states its preferredUsername.
    const embedded = { data: { raw: { actor: { id: remote, preferredUsername: "carol" } } } };
    expect(summarise(message(embedded), {}).who).toBe("@carol@127.0.0.2:3001");
  });

  it("reads parsed and falls back to raw (parsed {} or absent, as a real cattle_grid sends)", () => {
    const activity = {
      type: "Create",
      actor: "https://m.example/users/bob",
      object: { type: "Note", content: "<p>Hello <b>Bob</b>, this is a long enough note</p>" },
    };
    for (const data of [{ raw: activity, parsed: {} }, { raw: activity }]) {
      const event = { data, actor: "https://c.example/actor/1", event_type: "incoming" };
      expect(readActivityType(event)).toBe("Create");
      const summary = summarise(message(event, "incoming", readActivityType(event)), {});
      expect(summary).toMatchObject({
        type: "Create",
        who: "@bob@m.example",
        object: 'Note "Hello Bob , this is a long enough note"',
      });
    }
    // cattle_grid's embedded_object, and Corral's older parsed.object, both read.
    for (const key of ["embedded_object", "object"]) {
      const parsed = { activity: { type: "Create" }, [key]: { type: "Article", name: "T" } };
      expect(summarise(message({ data: { raw: {}, parsed } }), {}).object).toBe('Article "T"');
    }
    const long = "x".repeat(100);
    const note = { data: { raw: { type: "Create", object: { type: "Note", content: long } } } };
    expect(summarise(message(note), {}).object).toBe(`Note "${"x".repeat(80)}…"`);
  });

  it("reads the delivery state of outgoing messages that carry their deliveries", () => {
    const with3 = (states: string[]) => ({ deliveries: states.map((state) => ({ state })) });
    expect(readDeliveryState(with3(["delivered", "delivered", "delivered"]))).toBe("delivered 3/3");
    expect(readDeliveryState(with3(["delivered", "retrying"]))).toBe("retrying");
    expect(readDeliveryState(with3(["delivered", "stopped"]))).toBe("stopped");
    expect(readDeliveryState(with3(["delivered", "failed"]))).toBe("failed");
    // The words of docs/delivery-fates.md: a refused target was not sent, a queued one is queued.
    expect(readDeliveryState(with3(["refused"]))).toBe("not sent");
    expect(readDeliveryState(with3(["delivered", "queued"]))).toBe("queued");
    expect(readDeliveryState({})).toBeNull();
    expect(summarise(message(with3(["delivered"]), "incoming"), {}).delivery).toBeNull();
    expect(summarise(message(with3(["delivered"]), "outgoing"), {}).delivery).toBe("delivered 1/1");
  });

  it("offers the trigger id when the message has one", () => {
    expect(summarise(message({ trigger_id: "t-1" }), {}).triggerId).toBe("t-1");
    expect(summarise(message({ trigger_id: null }), {}).triggerId).toBeNull();
  });
});
