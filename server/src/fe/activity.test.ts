import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPerMinute } from "../events/activity.ts";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";

let server: TestServer;
let token: string;
let accountId: number;

beforeAll(async () => {
  server = await startTestServer();
  accountId = (await addAccount(server, "counted")).id;
  const other = (await addAccount(server, "other")).id;
  token = await signIn(server, "counted");
  const append = (id: number, stream: "incoming" | "outgoing" | "error") =>
    server.services.events.append(id, stream, { event_type: stream });
  for (const stream of ["incoming", "incoming", "incoming", "outgoing", "error"] as const)
    await append(accountId, stream);
  await append(other, "incoming");
});
afterAll(() => server?.close());

describe("GET /fe/account/activity", () => {
  it("counts the account's own events per stream, one entry per minute, oldest first", async () => {
    const response = await fe(server, token, "/account/activity?minutes=3");
    expect(response.status).toBe(200);
    const { minutes } = await response.json();
    expect(minutes).toHaveLength(3);
    const ats = minutes.map((m: { at: string }) => Date.parse(m.at));
    expect(ats[1] - ats[0]).toBe(60_000);
    expect(ats[2]).toBe(Math.floor(Date.now() / 60_000) * 60_000);
    // Summed, so a minute turning between the appends and the request changes nothing.
    const total = (key: string) =>
      minutes.reduce((n: number, m: Record<string, number>) => n + m[key]!, 0);
    expect([total("incoming"), total("outgoing"), total("error")]).toEqual([3, 1, 1]);
  });

  it("defaults to 60 minutes", async () => {
    const { minutes } = await (await fe(server, token, "/account/activity")).json();
    expect(minutes).toHaveLength(60);
  });

  it("places each event in the minute it was stored, and minutes without events are zero", async () => {
    const now = Date.now();
    const placed = (await addAccount(server, "placed")).id;
    const minuteStart = (Math.floor(now / 60_000) - 10) * 60_000;
    await server.services.db.run(
      "INSERT INTO events (account_id, stream, seq, data, created_at) VALUES (?, ?, 1, '{}', ?)",
      [placed, "error", minuteStart + 59_999],
    );
    const series = await activityPerMinute(server.services.db, placed, 15, now);
    expect(series[4]).toEqual({
      at: new Date(minuteStart).toISOString(),
      incoming: 0,
      outgoing: 0,
      error: 1,
    });
    expect(series.filter((m) => m.error > 0)).toHaveLength(1);
    // Older than the window: not counted.
    expect(
      (await activityPerMinute(server.services.db, placed, 10, now)).some((m) => m.error > 0),
    ).toBe(false);
  });

  it.each(["0", "1441", "1.5", "abc", ""])(
    "refuses minutes=%s with 422 naming the bounds",
    async (value) => {
      const response = await fe(server, token, `/account/activity?minutes=${value}`);
      expect(response.status).toBe(422);
      expect((await response.json()).detail[0]).toMatchObject({
        loc: ["query", "minutes"],
        msg: expect.stringMatching(/from 1 to 1440/),
      });
    },
  );

  it("needs a token", async () => {
    expect((await fe(server, null, "/account/activity")).status).toBe(401);
  });
});
