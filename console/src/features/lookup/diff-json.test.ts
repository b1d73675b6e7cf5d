import { describe, expect, it } from "vitest";
import { diffJson } from "./diff-json.ts";

describe("diffJson", () => {
  it("lists one line per added, removed and changed path with old and new values", () => {
    const before = {
      id: "https://a.example/u/bob",
      name: "Bob",
      summary: "old",
      icon: { url: "https://a.example/1.png" },
      tag: ["x", "y"],
    };
    const after = {
      id: "https://a.example/u/bob",
      name: "Robert",
      icon: { url: "https://a.example/2.png", mediaType: "image/png" },
      tag: ["x"],
      "odd key": 1,
    };

    expect(diffJson(before, after).lines).toEqual([
      { kind: "added", path: "icon.mediaType", after: '"image/png"' },
      {
        kind: "changed",
        path: "icon.url",
        before: '"https://a.example/1.png"',
        after: '"https://a.example/2.png"',
      },
      { kind: "changed", path: "name", before: '"Bob"', after: '"Robert"' },
      { kind: "added", path: '["odd key"]', after: "1" },
      { kind: "removed", path: "summary", before: '"old"' },
      { kind: "removed", path: "tag[1]", before: '"y"' },
    ]);
  });

  it("reports nothing for equal documents, whatever their key order", () => {
    expect(diffJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }).lines).toEqual(
      [],
    );
  });

  it("lists the leaves of a value that became an object", () => {
    expect(diffJson({ attachment: "none" }, { attachment: { type: "Image" } }).lines).toEqual([
      { kind: "removed", path: "attachment", before: '"none"' },
      { kind: "added", path: "attachment.type", after: '"Image"' },
    ]);
  });

  it("compares documents nested 50,000 levels deep", () => {
    let before: unknown = "old";
    let after: unknown = "new";
    for (let level = 0; level < 50_000; level++) {
      before = { a: before };
      after = { a: after };
    }
    const { lines } = diffJson(before, after);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ kind: "changed", before: '"old"', after: '"new"' });
  });

  it("stops listing at the limit and counts the rest", () => {
    const before = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    expect(diffJson(before, {}, 10)).toMatchObject({ more: 20 });
  });
});
