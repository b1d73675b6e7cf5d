import { describe, expect, it } from "vitest";
import { act, renderHook } from "@testing-library/react";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import { usePause } from "./use-pause.ts";

const message = (seq: number): StreamMessage => ({
  stream: "incoming",
  seq,
  id: String(seq),
  data: {},
  activityType: null,
  receivedAt: seq,
});
const window_ = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => message(from + i));

describe("usePause at the retention limit", () => {
  it("lists what was held at the pause while arrivals evict it, and N new finds the first new", () => {
    const cap = 5;
    const { result, rerender } = renderHook(({ live }) => usePause(live), {
      initialProps: { live: window_(0, cap) },
    });
    const before = result.current.listed;
    act(() => result.current.toggle());
    // Seven arrive: the store keeps the newest five, none of those that were listed.
    rerender({ live: window_(7, cap) });
    expect(result.current.paused).toBe(true);
    expect(result.current.listed).toBe(before);
    expect(result.current.newCount).toBe(5);
    let first: StreamMessage | undefined;
    act(() => {
      first = result.current.resumeToNew();
    });
    expect(first?.seq).toBe(7);
    expect(result.current.paused).toBe(false);
    expect(result.current.listed.map((m) => m.seq)).toEqual([7, 8, 9, 10, 11]);
  });

  it("after a reset while paused, lists nothing and counts what arrives as new", () => {
    const { result, rerender } = renderHook(({ live }) => usePause(live), {
      initialProps: { live: window_(0, 3) },
    });
    act(() => result.current.toggle());
    act(() => result.current.forgetFrozen());
    rerender({ live: window_(3, 2) });
    expect(result.current.listed).toEqual([]);
    expect(result.current.newCount).toBe(2);
  });
});

describe("usePause under a search of the server", () => {
  const retained = (id: number): StreamMessage => ({
    ...message(id),
    seq: Number.MIN_SAFE_INTEGER + id,
  });
  it("lists only the server's matches from before the pause and counts the later ones as new, each once", () => {
    const { result, rerender } = renderHook(({ live, answer }) => usePause(live, answer), {
      initialProps: {
        live: window_(0, 3),
        answer: null as readonly StreamMessage[] | null,
      },
    });
    act(() => result.current.toggle());
    // Two arrive (held live too); the search answered after them finds them, one older match
    // this browser never held, and one newer that only the server has.
    const answer = [retained(1), retained(3), retained(4), retained(5)];
    rerender({ live: window_(0, 5), answer });
    expect(result.current.retainedListed).toEqual([retained(1)]);
    expect(result.current.newCount).toBe(3);
    act(() => result.current.toggle());
    expect(result.current.retainedListed).toBe(answer);
  });
});
