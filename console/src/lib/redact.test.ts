import { describe, expect, it } from "vitest";
import { redact, REDACTED, REDACTED_KEYS } from "./redact.ts";

describe("redact", () => {
  it.each([...REDACTED_KEYS])("replaces the value under %s, whatever its type", (key) => {
    const original = { [key]: { nested: "secret" }, keep: 1 };
    expect(redact(original)).toEqual({ [key]: REDACTED, keep: 1 });
    expect(redact({ [key]: "text" })).toEqual({ [key]: REDACTED });
    expect(redact({ [key]: null })).toEqual({ [key]: REDACTED });
  });

  it("redacts at any depth, inside arrays too, and leaves the original untouched", () => {
    const original = {
      data: {
        parsed: { activity: { type: "Create" }, signature: { signatureValue: "abc" } },
        items: [{ proof: "p" }, [{ deeper: { token: "t" } }], "signature"],
      },
    };
    expect(redact(original)).toEqual({
      data: {
        parsed: { activity: { type: "Create" }, signature: REDACTED },
        items: [{ proof: REDACTED }, [{ deeper: { token: REDACTED } }], "signature"],
      },
    });
    expect(original.data.parsed.signature).toEqual({ signatureValue: "abc" });
  });

  it("matches keys exactly (case matters, a key that only contains a name is kept)", () => {
    expect(redact({ Signature: 1, signatures: 2, tokenizer: 3 })).toEqual({
      Signature: 1,
      signatures: 2,
      tokenizer: 3,
    });
  });

  it("handles a document nested far deeper than the call stack", () => {
    let deep: unknown = { token: "secret" };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    let copy = redact(deep) as { next?: unknown; token?: unknown };
    for (let i = 0; i < 100_000; i++) copy = copy.next as typeof copy;
    expect(copy).toEqual({ token: REDACTED });
  });

  it("returns plain values as they are", () => {
    expect(redact("text")).toBe("text");
    expect(redact(null)).toBe(null);
    expect(redact([1, 2])).toEqual([1, 2]);
  });
});
