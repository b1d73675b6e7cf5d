import { describe, expect, it } from "vitest";
import { grouped } from "./grouped.ts";

describe("grouped calls", () => {
  it("runs the calls made in one turn of the event loop as one group, each answered in order", async () => {
    const groups: number[][] = [];
    // Answers at once, as SQLite does: only the turn can make a group.
    const double = grouped(async (items: number[]) => {
      groups.push(items);
      return items.map((n) => n * 2);
    });
    const first = double(1);
    await Promise.resolve();
    const second = double(2);
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(await double(3)).toBe(6);
    expect(groups).toEqual([[1, 2], [3]]);
  });

  it("runs the calls made while a group is being written as the next group, at most `max` each", async () => {
    const groups: number[][] = [];
    let release: () => void = () => {};
    const slow = grouped(async (items: number[]) => {
      groups.push(items);
      if (groups.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items;
    }, 2);
    const all = [slow(1)];
    await new Promise((resolve) => setImmediate(resolve));
    all.push(slow(2), slow(3), slow(4));
    release();
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4]);
    expect(groups).toEqual([[1], [2, 3], [4]]);
  });

  it("rejects every call of a group that failed, and goes on with the next", async () => {
    const failing = grouped(async (items: number[]) => {
      if (items.includes(0)) throw new Error("no zero");
      return items;
    });
    const results = await Promise.allSettled([failing(0), failing(1)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await failing(5)).toBe(5);
  });
});
