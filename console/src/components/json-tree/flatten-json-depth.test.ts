import { describe, expect, it } from "vitest";
import { flattenJson } from "./flatten-json.ts";

const message = { actor: "a", data: { parsed: { activity: { type: "Like" } }, raw: { id: 1 } } };
const visible = (rows: ReturnType<typeof flattenJson>) =>
  rows.map(
    (row) =>
      `${"  ".repeat(row.depth)}${row.label}${row.kind === "branch" && !row.open ? " ▸" : ""}`,
  );

describe("flattenJson with collapseBelowDepth", () => {
  it("opens everything by default", () => {
    expect(flattenJson(message, new Set())).toHaveLength(7);
  });

  it("at 1 shows the top-level keys and their children, deeper branches closed", () => {
    expect(visible(flattenJson(message, new Set(), { collapseBelowDepth: 1 }))).toEqual([
      "actor",
      "data",
      "  parsed ▸",
      "  raw ▸",
    ]);
  });

  it("still opens a closed branch when it is toggled", () => {
    const parsedId = flattenJson(message, new Set(), { collapseBelowDepth: 1 }).find(
      (row) => row.label === "parsed",
    )!.id;
    expect(visible(flattenJson(message, new Set([parsedId]), { collapseBelowDepth: 1 }))).toEqual([
      "actor",
      "data",
      "  parsed",
      "    activity ▸",
      "  raw ▸",
    ]);
  });
});
