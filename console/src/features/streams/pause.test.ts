import { describe, expect, it } from "vitest";
import type { StreamMessage, StreamType } from "../../lib/streams/stream-store.ts";
import { countNew, firstNew, holdAt, marksAt } from "./pause.ts";

function message(stream: StreamType, seq: number): StreamMessage {
  return { stream, seq, id: null, data: { seq }, activityType: null, receivedAt: seq };
}
const range = (stream: StreamType, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => message(stream, from + i));

describe("pause accounting", () => {
  it("keeps listing what was held at the pause and counts every later arrival", () => {
    const held = range("incoming", 0, 5);
    const hold = holdAt(held);
    const live = [...held, ...range("incoming", 5, 47)];
    expect(hold.frozen).toBe(held);
    expect(countNew(live, hold.marks)).toBe(42);
    expect(firstNew(live, hold.marks)?.seq).toBe(5);
  });

  it("holds the list still at the retention limit, where every arrival evicts the oldest", () => {
    const cap = 10;
    const held = range("incoming", 0, cap);
    const hold = holdAt(held);
    // Fifteen arrived while paused: the store now holds 15…24 and none of what was listed.
    const live = range("incoming", 15, 15 + cap);
    expect(hold.frozen.map((m) => m.seq)).toEqual(held.map((m) => m.seq));
    expect(countNew(live, hold.marks)).toBe(cap);
    // "N new" brings the first of them still held into view.
    expect(firstNew(live, hold.marks)?.seq).toBe(15);
  });

  it("counts only what came after a reset as new", () => {
    const marks = marksAt(range("error", 0, 3));
    expect(countNew([], marks)).toBe(0);
    expect(firstNew([], marks)).toBeUndefined();
    expect(countNew(range("error", 3, 5), marks)).toBe(2);
  });

  it("counts per stream in the merged list, a stream empty at the pause included", () => {
    const held = [message("incoming", 0), message("outgoing", 0), message("incoming", 1)];
    const hold = holdAt(held);
    const live = [...held, message("error", 0), message("outgoing", 1), message("incoming", 2)];
    expect(countNew(live, hold.marks)).toBe(3);
    expect(firstNew(live, hold.marks)).toBe(live[3]);
  });
});
