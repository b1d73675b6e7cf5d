import { afterEach, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../../test/fresh.ts";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";
import { openSse, type SseConnection } from "../../test/sse.ts";

const servers: TestServer[] = [];
const connections: SseConnection[] = [];
afterEach(async () => {
  connections.splice(0).forEach((c) => c.close());
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(input: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(input);
  servers.push(server);
  return server;
}

async function connect(
  server: TestServer,
  token: string,
  stream: string,
  lastEventId?: number | string,
) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers["Last-Event-ID"] = String(lastEventId);
  const connection = await openSse(`${server.url}/fe/account/stream/${stream}`, headers);
  connections.push(connection);
  return connection;
}

describe("GET /fe/account/stream/{type}", () => {
  it("streams new events live as id/data frames without an event name", async () => {
    const server = await start();
    const account = await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    await server.services.events.append(account.id, "incoming", { before: "connecting" });
    const sse = await connect(server, token, "incoming");
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await sse.waitFor((f) => f.comment === "connected");
    await server.services.events.append(account.id, "incoming", { n: 1 });
    await server.services.events.append(account.id, "outgoing", { other: "stream" });
    await server.services.events.append(account.id, "incoming", { n: 2 });
    const frames = await sse.waitForData(2);
    expect(frames).toEqual([
      { id: "2", data: '{"n":1}' },
      { id: "3", data: '{"n":2}' },
    ]);
  });

  it("sends an outgoing event of a trigger as stored: the body goes only with error events", async () => {
    const server = await start();
    const account = await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const sse = await connect(server, token, "outgoing");
    await sse.waitFor((f) => f.comment === "connected");
    const outgoing = { event_type: "outgoing", data: { raw: { type: "Note" } }, trigger_id: "t1" };
    await server.services.events.append(account.id, "outgoing", outgoing);
    const [frame] = await sse.waitForData(1);
    expect(JSON.parse(frame!.data!)).toEqual(outgoing);
  });

  it("replays every event after Last-Event-ID, then continues live", async () => {
    const server = await start();
    const account = await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    for (let n = 1; n <= 5; n++) await server.services.events.append(account.id, "error", { n });
    const sse = await connect(server, token, "error", 3);
    await server.services.events.append(account.id, "error", { n: 6 });
    const frames = await sse.waitForData(3);
    expect(frames.map((f) => [f.id, JSON.parse(f.data!).n])).toEqual([
      ["4", 4],
      ["5", 5],
      ["6", 6],
    ]);
  });

  it("tells a first connection the newest id in an id-only frame, so a later resume from it misses nothing", async () => {
    const server = await start();
    const account = await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    await server.services.events.append(account.id, "incoming", { n: 1 });
    await server.services.events.append(account.id, "incoming", { n: 2 });
    const first = await connect(server, token, "incoming");
    const position = await first.waitFor((f) => f.id !== undefined);
    expect(position).toEqual({ id: "2" });
    await server.services.events.append(account.id, "incoming", { n: 3 });
    await first.waitForData(1);
    first.close();
    // A client that showed n: 3 but did not keep it resumes from the position it was told.
    const resumed = await connect(server, token, "incoming", Number(position.id));
    const frames = await resumed.waitForData(1);
    expect(frames.map((f) => JSON.parse(f.data!))).toEqual([{ n: 3 }]);
    expect(resumed.frames.filter((f) => f.id !== undefined && f.data === undefined)).toEqual([]);
  });

  it("loses nothing across a server restart on the same database when reconnecting with Last-Event-ID", async () => {
    const database = freshDatabaseUrl();
    const first = await start({ database });
    const account = await addAccount(first, "alice");
    const token = await signIn(first, "alice");
    const before = await connect(first, token, "incoming");
    await before.waitFor((f) => f.comment === "connected");
    await first.services.events.append(account.id, "incoming", { n: 1 });
    await first.services.events.append(account.id, "incoming", { n: 2 });
    const seen = await before.waitForData(2);
    const lastId = Number(seen.at(-1)!.id);
    // Events stored while the client is disconnected and the server restarts.
    await first.services.events.append(account.id, "incoming", { n: 3 });
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await start({ database });
    await second.services.events.append(account.id, "incoming", { n: 4 });
    const after = await connect(second, token, "incoming", lastId);
    await second.services.events.append(account.id, "incoming", { n: 5 });
    const frames = await after.waitForData(3);
    expect([...seen, ...frames].map((f) => JSON.parse(f.data!).n)).toEqual([1, 2, 3, 4, 5]);
    expect(frames.map((f) => f.id)).toEqual(["3", "4", "5"]);
  });

  it("sends a keep-alive comment at the configured interval", async () => {
    const server = await start({ keepAliveMs: 50 });
    await addAccount(server, "alice");
    const sse = await connect(server, await signIn(server, "alice"), "outgoing");
    await sse.waitFor((f) => f.comment === "keep-alive", 2_000);
    expect(sse.frames.every((f) => f.data === undefined)).toBe(true);
  });

  it("keeps only the newest events up to the cap for replay", async () => {
    const server = await start({ streamCap: 3 });
    const account = await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    for (let n = 1; n <= 6; n++) await server.services.events.append(account.id, "incoming", { n });
    const sse = await connect(server, token, "incoming", 0);
    const frames = await sse.waitForData(3);
    expect(frames.map((f) => f.id)).toEqual(["4", "5", "6"]);
  });

  it("does not show one account's events to another", async () => {
    const server = await start();
    const alice = await addAccount(server, "alice");
    await addAccount(server, "bob");
    const sse = await connect(server, await signIn(server, "bob"), "incoming", 0);
    await server.services.events.append(alice.id, "incoming", { secret: true });
    await sse.waitFor((f) => f.comment === "connected");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sse.frames.filter((f) => f.data !== undefined)).toEqual([]);
  });

  it("answers 422 for another stream type and 401 without a token", async () => {
    const server = await start();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const wrong = await fe(server, token, "/account/stream/everything");
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({
      detail: [
        {
          loc: ["path", "event_type"],
          msg: "Input should be 'incoming', 'outgoing', 'error' or 'combined'",
          type: "enum",
        },
      ],
    });
    expect((await fe(server, null, "/account/stream/incoming")).status).toBe(401);
  });

  it("answers 422 for a timeout that is no number, as cattle_grid does, and takes one that is", async () => {
    const server = await start();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const wrong = await fe(server, token, "/account/stream/incoming?timeout=5&timeout=null");
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({
      detail: [
        {
          loc: ["query", "timeout"],
          msg: "Input should be a valid number, unable to parse string as a number",
          type: "float_parsing",
        },
      ],
    });
    const both = await fe(server, token, "/account/stream/everything?timeout=");
    expect((await both.json()).detail.map((e: { loc: string[] }) => e.loc)).toEqual([
      ["path", "event_type"],
      ["query", "timeout"],
    ]);
    const sse = await openSse(`${server.url}/fe/account/stream/incoming?timeout=2.5`, {
      Authorization: `Bearer ${token}`,
    });
    connections.push(sse);
    expect(sse.status).toBe(200);
  });

  it("releases its subscription and keep-alive when the client goes away", async () => {
    const server = await start({ keepAliveMs: 20 });
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const streams = await Promise.all(
      ["incoming", "outgoing", "error"].map((s) => connect(server, token, s)),
    );
    await Promise.all(streams.map((s) => s.waitFor((f) => f.comment === "keep-alive")));
    expect(server.services.events.watchers()).toBe(3);
    streams.forEach((s) => s.close());
    await expect.poll(() => server.services.events.watchers(), { timeout: 5_000 }).toBe(0);
  });

  it("delivers a burst of events live, all of them, in order", async () => {
    const server = await start();
    const account = await addAccount(server, "alice");
    const sse = await connect(server, await signIn(server, "alice"), "incoming");
    await sse.waitFor((f) => f.comment === "connected");
    const appends = [];
    for (let n = 1; n <= 1500; n++) {
      appends.push(server.services.events.append(account.id, "incoming", { n }));
      if (n % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(appends);
    const frames = await sse.waitForData(1500, 20_000);
    expect(frames.map((f) => Number(f.id))).toEqual(Array.from({ length: 1500 }, (_, i) => i + 1));
  });
});

describe("GET /fe/account/stream/combined", () => {
  const event = (stream: "incoming" | "outgoing", n: number) => ({
    actor: "http://127.0.0.1/actor/me",
    event_type: stream,
    data: { raw: { id: `http://127.0.0.1/${stream}/${n}`, type: "Note" } },
    history_id: null,
  });

  it("sends incoming and outgoing, not errors, each with the history_id history gives it", async () => {
    const server = await start();
    const account = await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const sse = await connect(server, token, "combined");
    expect(sse.status).toBe(200);
    expect(await sse.waitFor((f) => f.id !== undefined)).toEqual({ id: "0.0" });
    // Each seen before the next is stored: across two streams, only that fixes the order.
    await server.services.events.append(account.id, "incoming", event("incoming", 1));
    await sse.waitForData(1);
    await server.services.events.append(account.id, "error", { message: ["no"] });
    await server.services.events.append(account.id, "outgoing", event("outgoing", 1));
    await sse.waitForData(2);
    await server.services.events.append(account.id, "incoming", event("incoming", 2));
    const frames = await sse.waitForData(3);
    const data = frames.map((f) => JSON.parse(f.data!));
    expect(data.map((d) => d.data.raw.id)).toEqual([
      "http://127.0.0.1/incoming/1",
      "http://127.0.0.1/outgoing/1",
      "http://127.0.0.1/incoming/2",
    ]);
    expect(frames.map((f) => f.id)).toEqual(["1.0", "1.1", "2.1"]);
    const { events } = await (await fe(server, token, "/account/history")).json();
    const all = await (await fe(server, token, "/account/events/all")).json();
    for (const d of data) {
      expect(d.history_id).toMatch(/^[0-9a-f-]{36}$/);
      const { history_id, ...rest } = d;
      expect(events).toContainEqual({ ...rest, history_id });
      expect(all.events).toContainEqual(
        expect.objectContaining({ history_id, event: { ...rest, history_id: null } }),
      );
      // Usable as start_from: nothing of it, and everything after it.
      const after = await (
        await fe(server, token, `/account/history?start_from=${history_id}`)
      ).json();
      // Newest first in history-id order: by time, then stream, then id. Two events of one
      // millisecond on two streams sort by stream, not by arrival.
      expect(after.events.map((e: { history_id: string }) => e.history_id)).toEqual(
        data
          .filter((o) => o.history_id > history_id)
          .map((o) => o.history_id as string)
          .sort()
          .reverse(),
      );
    }
  });

  it("resumes both streams exactly from Last-Event-ID, and says where a stranger id stands", async () => {
    const server = await start();
    const account = await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    for (let n = 1; n <= 3; n++) {
      await server.services.events.append(account.id, "incoming", event("incoming", n));
      await server.services.events.append(account.id, "outgoing", event("outgoing", n));
    }
    const resumed = await connect(server, token, "combined", "2.1");
    await server.services.events.append(account.id, "outgoing", event("outgoing", 4));
    // The two streams' rows interleave as they are read: the set is exact, the order within each.
    const frames = await resumed.waitForData(4);
    expect(frames.map((f) => JSON.parse(f.data!).data.raw.id).sort()).toEqual([
      "http://127.0.0.1/incoming/3",
      "http://127.0.0.1/outgoing/2",
      "http://127.0.0.1/outgoing/3",
      "http://127.0.0.1/outgoing/4",
    ]);
    expect(frames.at(-1)!.id).toBe("3.4");
    expect(resumed.frames.filter((f) => f.id !== undefined && f.data === undefined)).toEqual([]);
    const stranger = await connect(server, token, "combined", "17");
    expect(await stranger.waitFor((f) => f.id !== undefined)).toEqual({ id: "3.4" });
  });
});
