import { describe, expect, it } from "vitest";
import type { StreamMessage, StreamType } from "../../lib/stream-store.ts";
import { formatClock, readDeliveryState, shortenActor, summarise } from "./message-summary.ts";

function message(
  data: unknown,
  stream: StreamType = "incoming",
  activityType: string | null = null,
) {
  const receivedAt = new Date(2026, 10, 25, 9, 5, 7).getTime();
  return { stream, seq: 0, id: null, data, activityType, receivedAt } satisfies StreamMessage;
}

describe("message summary", () => {
  it("shows the local arrival time as HH:MM:SS", () => {
    expect(formatClock(new Date(2026, 0, 2, 3, 4, 5).getTime())).toBe("03:04:05");
    expect(summarise({ ...message({}), receivedAt: null }, []).time).toBe("--:--:--");
  });

  it("takes the activity type, else the error's routing key, else a dash", () => {
    expect(summarise(message({}, "incoming", "Follow"), []).type).toBe("Follow");
    expect(summarise(message({ routing_key: "no_such_method" }, "error"), []).type).toBe(
      "no_such_method",
    );
    expect(summarise(message({ x: 1 }), []).type).toBe("—");
  });

  it("shortens the activity's actor to @name@host when the name is known", () => {
    const known = [{ id: "https://corral.example/actors/abc", name: "alice" }];
    expect(shortenActor("https://corral.example/actors/abc", known)).toBe("@alice@corral.example");
    expect(shortenActor("https://m.example/users/bob", [])).toBe("@bob@m.example");
    expect(shortenActor({ id: "https://x.example/p/1", preferredUsername: "carol" }, [])).toBe(
      "@carol@x.example",
    );
    expect(shortenActor("https://x.example/p/1", [])).toBe("x.example/p/1");
    expect(shortenActor(undefined, [])).toBeNull();
    const data = { data: { parsed: { activity: { actor: "https://m.example/users/bob" } } } };
    expect(summarise(message(data), []).who).toBe("@bob@m.example");
  });

  it("reads the delivery state of outgoing messages that carry their deliveries", () => {
    const with3 = (states: string[]) => ({ deliveries: states.map((state) => ({ state })) });
    expect(readDeliveryState(with3(["delivered", "delivered", "delivered"]))).toBe("delivered 3/3");
    expect(readDeliveryState(with3(["delivered", "retrying"]))).toBe("retrying");
    expect(readDeliveryState(with3(["delivered", "stopped"]))).toBe("stopped");
    expect(readDeliveryState(with3(["delivered", "failed"]))).toBe("failed");
    expect(readDeliveryState({})).toBeNull();
    expect(summarise(message(with3(["delivered"]), "incoming"), []).delivery).toBeNull();
    expect(summarise(message(with3(["delivered"]), "outgoing"), []).delivery).toBe("delivered 1/1");
  });

  it("offers the trigger id when the message has one", () => {
    expect(summarise(message({ trigger_id: "t-1" }), []).triggerId).toBe("t-1");
    expect(summarise(message({ trigger_id: null }), []).triggerId).toBeNull();
  });
});
