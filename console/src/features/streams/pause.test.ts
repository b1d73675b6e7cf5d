import { describe, expect, it } from "vitest";
import type { StreamMessage, StreamType } from "../../lib/stream-store.ts";
import { marksAt, splitAtPause } from "./pause.ts";

function message(stream: StreamType, seq: number): StreamMessage {
  return { stream, seq, id: null, data: { seq }, activityType: null, receivedAt: seq };
}
const range = (stream: StreamType, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => message(stream, from + i));

describe("pause accounting", () => {
  it("keeps listing what was held at the pause and counts every later arrival", () => {
    const held = range("incoming", 0, 5);
    const marks = marksAt(held);
    const live = [...held, ...range("incoming", 5, 47)];
    const split = splitAtPause(live, marks);
    expect(split.frozen).toEqual(held);
    expect(split.newCount).toBe(42);
    // Resuming lists all of them: frozen and new together are exactly what is held.
    expect(split.frozen.length + split.newCount).toBe(live.length);
  });

  it("loses nothing when the oldest are dropped by the cap while paused", () => {
    const held = range("incoming", 0, 10);
    const marks = marksAt(held);
    const live = [...range("incoming", 3, 10), ...range("incoming", 10, 14)];
    const split = splitAtPause(live, marks);
    expect(split.frozen.map((m) => m.seq)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(split.newCount).toBe(4);
  });

  it("follows a reset: nothing frozen, only what came after it is new", () => {
    const marks = marksAt(range("error", 0, 3));
    expect(splitAtPause([], marks)).toEqual({ frozen: [], newCount: 0 });
    expect(splitAtPause(range("error", 3, 5), marks).newCount).toBe(2);
  });

  it("counts per stream in the merged list, a stream empty at the pause included", () => {
    const held = [message("incoming", 0), message("outgoing", 0), message("incoming", 1)];
    const marks = marksAt(held);
    const live = [...held, message("error", 0), message("outgoing", 1), message("incoming", 2)];
    const split = splitAtPause(live, marks);
    expect(split.frozen).toEqual(held);
    expect(split.newCount).toBe(3);
  });

  it("returns the previous split when the frozen part is unchanged, so the list keeps still", () => {
    const held = range("incoming", 0, 5);
    const marks = marksAt(held);
    const first = splitAtPause([...held, message("incoming", 5)], marks);
    const second = splitAtPause([...held, ...range("incoming", 5, 8)], marks, first);
    expect(second.frozen).toBe(first.frozen);
    expect(second.newCount).toBe(3);
  });
});
