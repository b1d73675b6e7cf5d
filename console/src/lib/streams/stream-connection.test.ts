import { describe, expect, it } from "vitest";
import { createStore } from "zustand/vanilla";
import { createTracker, REPLAY_QUIET_MS, type ConnectionState } from "./stream-connection.ts";

function setup() {
  let clock = 1_000_000;
  const store = createStore<ConnectionState>()(() => ({ status: { kind: "idle" }, markers: [] }));
  const tracker = createTracker(store, () => clock);
  return { store, tracker, advance: (ms: number) => (clock += ms) };
}

describe("connection tracker", () => {
  it("goes from connecting to connected, with no marker for the first connection", () => {
    const { store, tracker } = setup();
    tracker.onConnecting();
    expect(store.getState().status).toEqual({ kind: "connecting" });
    tracker.onOpen(true);
    expect(store.getState().status).toEqual({ kind: "connected" });
    expect(store.getState().markers).toEqual([]);
  });

  it("counts down to the next attempt, and gives a fatal reason", () => {
    const { store, tracker } = setup();
    tracker.onOpen(true);
    tracker.onRetry(5000, "unreachable");
    expect(store.getState().status).toEqual({
      kind: "reconnecting",
      retryAt: 1_005_000,
      cause: "unreachable",
    });
    tracker.onFatal("status 503");
    expect(store.getState().status).toEqual({ kind: "disconnected", reason: "status 503" });
  });

  it("after a reconnect with ids, counts the replayed burst and not the live messages after it", () => {
    const { store, tracker, advance } = setup();
    tracker.onOpen(true);
    tracker.onMessage(); // live, before any reconnect: not counted anywhere
    tracker.onRetry(5000);
    advance(5000);
    tracker.onOpen(true);
    tracker.onMessage();
    tracker.onMessage();
    advance(REPLAY_QUIET_MS + 1);
    tracker.onMessage(); // live again
    expect(store.getState().markers).toEqual([
      { kind: "replayed", key: "marker-0", at: 1_005_000, count: 2 },
    ]);
  });

  it("after a reconnect without ids, marks a gap from the first failure to the reconnect", () => {
    const { store, tracker, advance } = setup();
    tracker.onOpen(false);
    advance(1000);
    tracker.onRetry(5000);
    advance(5000);
    tracker.onRetry(5000); // the server is still away: the gap starts at the first failure
    advance(5000);
    tracker.onOpen(false);
    expect(store.getState().markers).toEqual([
      { kind: "gap", key: "marker-0", at: 1_011_000, from: 1_001_000, to: 1_011_000, replayed: 0 },
    ]);
    tracker.clearMarkers();
    expect(store.getState().markers).toEqual([]);
  });

  it("turns a gap the upstream's history covered into a replay, and counts a partial one", () => {
    const { store, tracker, advance } = setup();
    tracker.onOpen(false);
    tracker.onRetry(5000, "unreachable");
    advance(5000);
    const covered = tracker.onOpen(false)!;
    tracker.onRetry(5000, "unreachable");
    advance(5000);
    const partial = tracker.onOpen(false)!;
    tracker.settleGap(covered, 3, true);
    tracker.settleGap(partial, 10, false);
    expect(store.getState().markers).toEqual([
      { kind: "replayed", key: covered, at: 1_005_000, count: 3 },
      { kind: "gap", key: partial, at: 1_010_000, from: 1_005_000, to: 1_010_000, replayed: 10 },
    ]);
  });
});
