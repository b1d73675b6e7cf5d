import { beforeEach, describe, expect, it } from "vitest";
import { resetLookupHistory, useLookupHistory } from "./lookup-history.ts";

beforeEach(() => resetLookupHistory());

describe("recent lookups", () => {
  it("keeps two lookups of one URI whose documents differ, whatever came between", () => {
    const { record } = useLookupHistory.getState();
    const a = "https://x.example/actor/a";
    record({ uri: a, at: 1, document: { id: a, name: "A" } });
    record({ uri: "https://x.example/other", at: 2, document: { id: "o" } });
    record({ uri: a, at: 3, document: { id: a, name: "A" } });
    record({ uri: a, at: 4, document: { id: a, name: "A2" } });
    record({ uri: a, at: 5, document: undefined });
    const shown = useLookupHistory.getState().recent.map((item) => [item.at, item.document]);
    expect(shown).toEqual([
      [5, undefined],
      [4, { id: a, name: "A2" }],
      [3, { id: a, name: "A" }],
      [2, { id: "o" }],
    ]);
  });
});
