import { describe, expect, it } from "vitest";
import { inboxHandlers } from "./index.ts";

describe("inboxHandlers", () => {
  it("lists a handler for each activity of the follow lifecycle", () => {
    for (const type of ["Follow", "Undo", "Accept", "Reject", "Delete"])
      expect(inboxHandlers.for({ type }), type).toBeTypeOf("function");
    expect(inboxHandlers.for({ type: "Create" })).toBeUndefined();
  });
});
