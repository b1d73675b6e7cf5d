import { beforeEach, describe, expect, it } from "vitest";
import {
  PERFORM_HISTORY_KEY,
  PERFORM_HISTORY_LIMIT,
  resetPerformHistory,
  usePerformHistory,
  type PerformCall,
} from "./perform-history-store.ts";

function call(n: number, outcome: PerformCall["outcome"] = { kind: "handed-over", status: 202 }) {
  const at = new Date(Date.UTC(2026, 10, 25, 3, 0, n)).toISOString();
  return { key: `k-${n}`, method: "send_message", body: { actor: "a", n }, at, outcome };
}

beforeEach(() => resetPerformHistory());

describe("perform history store", () => {
  it("keeps the last 100 calls, newest first", () => {
    for (let n = 0; n < PERFORM_HISTORY_LIMIT + 5; n += 1)
      usePerformHistory.getState().record(call(n));

    const keys = usePerformHistory.getState().calls.map((c) => c.key);
    expect(keys).toHaveLength(100);
    expect(keys[0]).toBe("k-104");
    expect(keys[99]).toBe("k-5");
  });

  it("notes the latest summary of a recorded call's trigger", () => {
    const recorded = { kind: "recorded", status: 202, triggerId: "t-1", summary: null } as const;
    usePerformHistory.getState().record(call(1, recorded));
    usePerformHistory.getState().record(call(2));

    usePerformHistory.getState().noteSummary("t-1", "done: 3 delivered");

    expect(usePerformHistory.getState().calls[1].outcome).toEqual({
      ...recorded,
      summary: "done: 3 delivered",
    });
  });

  it("restores from local storage, dropping only the entries it does not understand", async () => {
    const good = call(1, { kind: "refused", status: 422, detail: "x", problems: [] });
    localStorage.setItem(
      PERFORM_HISTORY_KEY,
      JSON.stringify({ state: { calls: [good, { key: 1 }, "junk", call(2)] }, version: 0 }),
    );

    await usePerformHistory.persist.rehydrate();

    expect(usePerformHistory.getState().calls.map((c) => c.key)).toEqual(["k-1", "k-2"]);
  });

  it("starts empty when local storage holds something else under its key", async () => {
    usePerformHistory.getState().record(call(1));
    localStorage.setItem(PERFORM_HISTORY_KEY, JSON.stringify({ state: { calls: "no" } }));
    resetPerformHistory();
    localStorage.setItem(PERFORM_HISTORY_KEY, JSON.stringify({ state: { calls: "no" } }));

    await usePerformHistory.persist.rehydrate();

    expect(usePerformHistory.getState().calls).toEqual([]);
  });
});
