import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonText } from "./json-depth.ts";

const nested = (depth: number, open = "[", close = "]") =>
  `${open.repeat(depth)}${close.repeat(depth)}`;

describe("the JSON depth limit", () => {
  it("counts arrays and objects alike, up to the limit and no further", () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${"}".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(nestsDeeperThan(objects)).toBe(true);
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ s: `\\"${"[".repeat(1000)}`, t: "{".repeat(1000) });
    expect(nestsDeeperThan(text, 2)).toBe(false);
  });

  it("scans a million levels without overflowing the stack", () => {
    expect(nestsDeeperThan(nested(1_000_000))).toBe(true);
  });

  it("parses what fits, and says why it refuses what does not", () => {
    expect(parseJsonText('{"a":[1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(parseJsonText(nested(300))).toEqual({
      ok: false,
      reason: expect.stringMatching(/nested too deeply/),
    });
    expect(parseJsonText("{")).toMatchObject({ ok: false });
  });
});
