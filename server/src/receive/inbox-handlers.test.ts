import { describe, expect, it } from "vitest";
import { InboxHandlers, type InboxHandler } from "./inbox-handlers.ts";

describe("InboxHandlers", () => {
  it("finds the handler by the activity's type, the first one when there are several", () => {
    const onLike: InboxHandler = async () => {};
    const handlers = new InboxHandlers().on("Like", onLike);
    expect(handlers.for({ type: "Like" })).toBe(onLike);
    expect(handlers.for({ type: ["Like", "EmojiReact"] })).toBe(onLike);
    expect(handlers.for({ type: ["EmojiReact", "Like"] })).toBeUndefined();
    expect(handlers.for({ type: "Create" })).toBeUndefined();
    expect(handlers.for({})).toBeUndefined();
  });

  it("refuses a second handler for one type", () => {
    const handlers = new InboxHandlers().on("Follow", async () => {});
    expect(() => handlers.on("Follow", async () => {})).toThrow(/two inbox handlers for Follow/);
  });
});
