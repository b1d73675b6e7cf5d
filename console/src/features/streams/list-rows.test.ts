import { describe, expect, it } from "vitest";
import type { StreamMarker } from "../../lib/stream-connection.ts";
import type { StreamMessage } from "../../lib/stream-store.ts";
import { buildRows } from "./list-rows.ts";

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
