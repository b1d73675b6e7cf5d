import { describe, expect, it } from "vitest";
import type { StreamMarker } from "../../lib/streams/stream-connection.ts";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import { buildRows, countArrivalsAfter, newestMessageKey } from "./list-rows.ts";

const message = (seq: number, receivedAt: number | null): StreamMessage => ({
  stream: "error",
  seq,
  id: null,
  data: {},
  activityType: null,
  receivedAt,
});
const replayed = (at: number): StreamMarker => ({ kind: "replayed", key: `m${at}`, at, count: 2 });

describe("buildRows", () => {
  it("places a marker before the first message received at or after the reconnect", () => {
    const rows = buildRows(
      [message(0, null), message(1, 100), message(2, 200), message(3, 201)],
      [{ stream: "error", marker: replayed(200) }],
      false,
    );
    expect(rows.map((row) => row.key)).toEqual([
      "error:0",
      "error:1",
      "error:m200",
      "error:2",
      "error:3",
    ]);
  });

  it("keeps a marker with nothing after it at the end, and reverses for newest first", () => {
    const rows = buildRows([message(0, 100)], [{ stream: "error", marker: replayed(300) }], true);
    expect(rows.map((row) => row.key)).toEqual(["error:m300", "error:0"]);
  });
});

describe("countArrivalsAfter", () => {
  const rows = buildRows(
    [message(0, 100), message(1, 200), message(2, 300), message(3, 400)],
    [{ stream: "error", marker: replayed(250) }],
    false,
  );
  it("counts the messages on the newest side of the one the view left at, markers aside", () => {
    expect(newestMessageKey(rows.slice(0, 3), false)).toBe("error:1");
    expect(countArrivalsAfter(rows, "error:1", false)).toBe(2);
    const newestFirst = [...rows].reverse();
    expect(newestMessageKey(newestFirst.slice(2), true)).toBe("error:1");
    expect(countArrivalsAfter(newestFirst, "error:1", true)).toBe(2);
  });
  it("counts none when that message is no longer listed, and every one when none was", () => {
    expect(countArrivalsAfter(rows, "error:9", false)).toBe(0);
    expect(countArrivalsAfter(rows, null, false)).toBe(4);
  });
});
