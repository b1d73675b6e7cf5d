import { describe, expect, it } from "vitest";
import { eventQueryString, readEvents } from "../../lib/streams/event-history.ts";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import { countRetained, toMessages, unionByEvent, withinRange } from "./use-server-search.ts";

function held(id: string | null, receivedAt: number, seq = Number(id)): StreamMessage {
  return { stream: "error", seq, id, data: { id }, activityType: null, receivedAt };
}

describe("the server's retained events in the console", () => {
  it("asks with the server's query names, times as ISO, the text trimmed", () => {
    const query = eventQueryString({ text: " Zebra ", since: 0, before: "12", limit: 500 });
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
      q: "Zebra",
      since: "1970-01-01T00:00:00.000Z",
      before: "12",
      limit: "500",
    });
  });

  it("reads entries into events of the stream, skipping ones without an id", () => {
    const events = readEvents("error", [
      { stream: "error", id: 7, receivedAt: "2026-11-26T10:00:00.000Z", event: { a: 1 } },
      { stream: "error", receivedAt: "2026-11-26T10:00:00.000Z", event: {} },
    ]);
    expect(events).toEqual([
      {
        stream: "error",
        id: "7",
        receivedAt: Date.parse("2026-11-26T10:00:00.000Z"),
        event: { a: 1 },
      },
    ]);
    expect(readEvents("error", { events: [] })).toBeNull();
  });

  it("lists each event once: the held copy of a server match, and held matches that came since", () => {
    const matches = toMessages([
      { stream: "error", id: "3", receivedAt: 30, event: { id: "3" } },
      { stream: "error", id: "1", receivedAt: 10, event: { id: "1" } },
    ]);
    const heldThree = held("3", 31, 0);
    const heldFour = held("4", 40, 1);
    const listed = unionByEvent(matches, [heldThree, heldFour]);
    expect(listed.map((m) => m.id)).toEqual(["1", "3", "4"]);
    expect(listed[1]).toBe(heldThree);
  });

  it("counts M as what the server kept plus what arrived after it was asked", () => {
    const retained = { count: 100, newestIds: { error: 120 } };
    expect(countRetained(retained, [held("119", 1), held("120", 2), held("121", 3)])).toBe(101);
    expect(countRetained({ count: 0, newestIds: {} }, [held("1", 1)])).toBe(1);
  });

  it("keeps held messages received within From and To, inclusive", () => {
    const messages = [held("1", 10), held("2", 20), held("3", 30), held(null, Number.NaN)];
    expect(withinRange(messages, { since: 20, until: 30 }).map((m) => m.id)).toEqual(["2", "3"]);
    expect(withinRange(messages, { since: null, until: null })).toBe(messages);
  });
});
