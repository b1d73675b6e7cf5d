import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TriggerDelivery, TriggerRecord } from "../../lib/trigger-record.ts";
import { createTriggerDeliveryCache } from "./trigger-delivery-cache.ts";

const options = { gatherMs: 100, concurrency: 2, refreshMs: 1000, staleMs: 30_000 };

function delivery(state: TriggerDelivery["state"]): TriggerDelivery {
  return {
    inbox: `https://x.example/${Math.random()}`,
    state,
    status: state === "delivered" ? 202 : 500,
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    deliveredAt: null,
  };
}

function record(id: string, states: TriggerDelivery["state"][]): TriggerRecord {
  return {
    id,
    method: "send_message",
    actor: "https://corral.example/actors/a",
    receivedAt: "2026-11-25T04:00:00Z",
    state: "done",
    error: null,
    deliveries: states.map(delivery),
    events: [],
  };
}

/** A server whose records the test changes; it counts the asks and how many ran at once. */
function fakeServer() {
  const records = new Map<string, TriggerRecord | null>();
  const asked: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  let down = false;
  const fetchRecord = async (id: string) => {
    asked.push(id);
    if (down) throw new Error("the server could not be reached");
    mostAtOnce = Math.max(mostAtOnce, ++running);
    await Promise.resolve();
    running -= 1;
    return records.get(id) ?? null;
  };
  return {
    records,
    asked,
    fetchRecord,
    mostAtOnce: () => mostAtOnce,
    setDown: (value: boolean) => void (down = value),
  };
}

describe("trigger delivery cache", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("asks once per call after gathering, a few at a time, and tells the cards", async () => {
    const server = fakeServer();
    for (const id of ["a", "b", "c", "d", "e"]) server.records.set(id, record(id, ["delivered"]));
    const cache = createTriggerDeliveryCache(server.fetchRecord, options);
    const told = vi.fn();
    for (const id of ["a", "b", "c", "d", "e", "a"]) cache.subscribe(id, told);
    expect(server.asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(server.asked.sort()).toEqual(["a", "b", "c", "d", "e"]);
    expect(server.mostAtOnce()).toBeLessThanOrEqual(2);
    expect(cache.read("a")).toBe("delivered 1/1");
    expect(told).toHaveBeenCalled();
  });

  it("asks again while a delivery is under way, and stops once settled", async () => {
    const server = fakeServer();
    server.records.set("t", record("t", ["delivered", "delivered", "retrying"]));
    const cache = createTriggerDeliveryCache(server.fetchRecord, options);
    cache.subscribe("t", () => {});
    await vi.advanceTimersByTimeAsync(100);
    expect(cache.read("t")).toBe("retrying");
    server.records.set("t", record("t", ["delivered", "delivered", "delivered"]));
    await vi.advanceTimersByTimeAsync(1100);
    expect(cache.read("t")).toBe("delivered 3/3");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.asked).toEqual(["t", "t"]);
  });

  it("shows a failed call as failed and never asks for a record nobody shows", async () => {
    const server = fakeServer();
    server.records.set("f", record("f", ["delivered", "failed"]));
    server.records.set("gone", record("gone", ["retrying"]));
    const cache = createTriggerDeliveryCache(server.fetchRecord, options);
    cache.subscribe("f", () => {});
    const unsubscribe = cache.subscribe("gone", () => {});
    unsubscribe();
    await vi.advanceTimersByTimeAsync(5000);
    expect(cache.read("f")).toBe("failed");
    expect(server.asked).toEqual(["f"]);
    // Scrolled back to: asked then.
    cache.subscribe("gone", () => {});
    await vi.advanceTimersByTimeAsync(100);
    expect(server.asked).toEqual(["f", "gone"]);
  });

  it("asks about a settled call again when its card is shown after a while (a Redeliver since)", async () => {
    const server = fakeServer();
    server.records.set("r", record("r", ["delivered", "failed"]));
    const cache = createTriggerDeliveryCache(server.fetchRecord, options);
    const unsubscribe = cache.subscribe("r", () => {});
    await vi.advanceTimersByTimeAsync(100);
    expect(cache.read("r")).toBe("failed");
    unsubscribe();
    cache.subscribe("r", () => {})();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.asked).toEqual(["r"]);
    server.records.set("r", record("r", ["delivered", "delivered"]));
    await vi.advanceTimersByTimeAsync(30_000);
    cache.subscribe("r", () => {});
    await vi.advanceTimersByTimeAsync(100);
    expect(cache.read("r")).toBe("delivered 2/2");
  });

  it("keeps asking about a stopped delivery, which a resume elsewhere sends", async () => {
    const server = fakeServer();
    server.records.set("s", record("s", ["stopped"]));
    const cache = createTriggerDeliveryCache(server.fetchRecord, options);
    cache.subscribe("s", () => {});
    await vi.advanceTimersByTimeAsync(100);
    expect(cache.read("s")).toBe("stopped");
    server.records.set("s", record("s", ["delivered"]));
    await vi.advanceTimersByTimeAsync(1100);
    expect(cache.read("s")).toBe("delivered 1/1");
  });

  it("asks again after the server could not be reached", async () => {
    const server = fakeServer();
    server.records.set("d", record("d", ["delivered"]));
    server.setDown(true);
    const cache = createTriggerDeliveryCache(server.fetchRecord, options);
    cache.subscribe("d", () => {});
    await vi.advanceTimersByTimeAsync(100);
    expect(cache.read("d")).toBeNull();
    server.setDown(false);
    await vi.advanceTimersByTimeAsync(1100);
    expect(cache.read("d")).toBe("delivered 1/1");
  });

  it("slows down for a call whose retry is far away", async () => {
    const server = fakeServer();
    server.records.set("slow", record("slow", ["retrying"]));
    const cache = createTriggerDeliveryCache(server.fetchRecord, options);
    cache.subscribe("slow", () => {});
    await vi.advanceTimersByTimeAsync(100 + 29 * 1000 + 500);
    expect(server.asked).toHaveLength(30);
    await vi.advanceTimersByTimeAsync(9000);
    expect(server.asked).toHaveLength(30);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.asked).toHaveLength(31);
  });

  it("does not ask again about a call the server cannot report (a proxy, an older server)", async () => {
    const server = fakeServer();
    const cache = createTriggerDeliveryCache(server.fetchRecord, options);
    cache.subscribe("unknown", () => {})();
    await vi.advanceTimersByTimeAsync(60_000);
    cache.subscribe("unknown", () => {});
    await vi.advanceTimersByTimeAsync(1000);
    expect(cache.read("unknown")).toBeNull();
    expect(server.asked).toEqual(["unknown"]);
  });
});
