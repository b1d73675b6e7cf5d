import { describe, expect, it } from "vitest";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import { exportContent, exportFileName } from "./export-messages.ts";

function message(data: unknown): StreamMessage {
  return { stream: "incoming", seq: 0, id: null, data, activityType: null, receivedAt: 0 };
}

describe("export", () => {
  it("names the file after the stream and the local time", () => {
    const at = new Date(2026, 10, 5, 4, 3, 9);
    expect(exportFileName("incoming", "json", at)).toBe("corral-incoming-20261105-040309.json");
    expect(exportFileName("all", "ndjson", at)).toBe("corral-all-20261105-040309.ndjson");
  });

  it("writes a JSON array or one line per message, with signatures and tokens redacted", () => {
    const messages = [
      message({ data: { parsed: { signature: { v: "sig" }, activity: { type: "Create" } } } }),
      message({ headers: { authorization: "Bearer x" }, n: 2 }),
    ];
    const json = JSON.parse(exportContent(messages, "json")) as unknown;
    expect(json).toEqual([
      { data: { parsed: { signature: "[redacted]", activity: { type: "Create" } } } },
      { headers: { authorization: "[redacted]" }, n: 2 },
    ]);
    const lines = exportContent(messages, "ndjson").split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(lines.slice(0, 2).map((line) => JSON.parse(line) as unknown)).toEqual(json);
    expect(exportContent(messages, "ndjson")).not.toContain('"sig"');
  });
});
