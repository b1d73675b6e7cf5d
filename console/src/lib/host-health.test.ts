import { describe, expect, it } from "vitest";
import { readHostList } from "./host-health.ts";

const host = {
  host: "mastodon.example",
  state: "failing",
  lastSuccessAt: "2026-11-24T10:00:00Z",
  lastFailureAt: "2026-11-25T03:00:00Z",
  failures7d: 3,
  queued: 2,
  failed: [
    {
      inbox: "https://mastodon.example/inbox",
      status: 500,
      attempts: 4,
      lastError: "HTTP 500",
      triggerId: "t-1",
    },
  ],
};

describe("readHostList", () => {
  it("reads the server's list of hosts as it comes", () => {
    expect(readHostList([host])).toEqual([host]);
  });

  it("keeps failuresByDay when it holds 7 counts, and drops a malformed one without the host", () => {
    const byDay = [0, 0, 1, 0, 0, 0, 2];
    expect(readHostList([{ ...host, failuresByDay: byDay }])?.[0].failuresByDay).toEqual(byDay);
    for (const bad of [[1, 2], [0, 0, 0, 0, 0, 0, -1], "3", null]) {
      const [read] = readHostList([{ ...host, failuresByDay: bad }]) ?? [];
      expect(read?.host).toBe("mastodon.example");
      expect(read).not.toHaveProperty("failuresByDay");
    }
  });

  it("keeps failingSince when the server sends it", () => {
    const since = "2026-11-18T00:00:00Z";
    expect(readHostList([{ ...host, failingSince: since }])?.[0].failingSince).toBe(since);
    expect(readHostList([{ ...host, failingSince: null }])?.[0]).not.toHaveProperty("failingSince");
  });

  it("reads a failed delivery without a triggerId (no call caused it) as null", () => {
    const { triggerId: _, ...noCall } = host.failed[0];
    expect(readHostList([{ ...host, failed: [noCall] }])?.[0].failed[0].triggerId).toBeNull();
  });

  it("rejects what is not a list of hosts", () => {
    expect(readHostList({ detail: "Not Found" })).toBeNull();
    expect(readHostList([{ ...host, state: "down" }])).toBeNull();
    expect(readHostList([{ ...host, queued: "2" }])).toBeNull();
    expect(readHostList([{ ...host, failed: [{ inbox: 1 }] }])).toBeNull();
  });
});
