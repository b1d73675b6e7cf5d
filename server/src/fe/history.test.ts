import { afterEach, describe, expect, it } from "vitest";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";

let server: TestServer | undefined;
afterEach(() => server?.close());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function incoming(n: number, type = "Create", sender = "http://remote.example/u/ann") {
  return {
    actor: "http://127.0.0.1/actor/me",
    event_type: "incoming",
    data: { raw: { id: `${sender}/a/${n}`, type, actor: sender, content: `Message ${n}` } },
    history_id: null,
    trigger_id: null,
  };
}
function outgoing(n: number) {
  return {
    actor: "http://127.0.0.1/actor/me",
    event_type: "outgoing",
    data: {
      raw: {
        id: `http://127.0.0.1/o/${n}`,
        type: "Like",
        actor: "http://127.0.0.1/actor/me",
        to: ["http://far.example:8080/u/bob"],
      },
    },
    history_id: null,
    trigger_id: null,
  };
}

async function setUp() {
  server = await startTestServer();
  const alice = await addAccount(server, "alice");
  const bob = await addAccount(server, "bob");
  const token = await signIn(server, "alice");
  // Events of one millisecond are ordered by stream, then id: each append here takes its own.
  const append = async (
    stream: "incoming" | "outgoing" | "error",
    data: object,
    account = alice.id,
  ) => {
    const seq = await server!.services.events.append(account, stream, data);
    const stored = Date.now();
    while (Date.now() === stored) await new Promise((resolve) => setImmediate(resolve));
    return seq;
  };
  return { alice, bob, token, append };
}

describe("GET /fe/account/history (cattle_grid's)", () => {
  it("answers its 10 newest incoming and outgoing events, newest first, each with a history_id", async () => {
    const { bob, token, append } = await setUp();
    expect(await (await fe(server!, token, "/account/history")).json()).toEqual({ events: [] });
    for (let n = 1; n <= 8; n++) {
      await append("incoming", incoming(n));
      await append("outgoing", outgoing(n));
      await append("error", { message: ["no"], routing_key: "x", original_message_body: "{}" });
    }
    await append("incoming", incoming(99), bob.id);
    const response = await fe(server!, token, "/account/history");
    expect(response.status).toBe(200);
    const { events } = await response.json();
    expect(events).toHaveLength(10);
    expect(events.map((e: { data: { raw: { id: string } } }) => e.data.raw.id)).toEqual(
      [8, 7, 6, 5, 4].flatMap((n) => [
        `http://127.0.0.1/o/${n}`,
        `http://remote.example/u/ann/a/${n}`,
      ]),
    );
    expect(events[0]).toMatchObject({ event_type: "outgoing", actor: "http://127.0.0.1/actor/me" });
    for (const event of events) expect(event.history_id).toMatch(uuid);
    const ids = events.map((e: { history_id: string }) => e.history_id);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it("answers what came after start_from, newest first, and 422 for one that is not a UUID", async () => {
    const { token, append } = await setUp();
    for (let n = 1; n <= 4; n++) {
      await append("incoming", incoming(n));
      await append("outgoing", outgoing(n));
    }
    const { events: newest } = await (await fe(server!, token, "/account/history")).json();
    const from = newest[4].history_id; // the 5th newest: three-and-a-bit pairs ago
    const after = await (await fe(server!, token, `/account/history?start_from=${from}`)).json();
    expect(after.events).toEqual(newest.slice(0, 4));
    const last = newest[0].history_id;
    expect(await (await fe(server!, token, `/account/history?start_from=${last}`)).json()).toEqual({
      events: [],
    });
    // Any UUID is a position in time; cattle_grid's own are UUIDv7 too.
    const past = await fe(
      server!,
      token,
      "/account/history?start_from=00000000-0000-7000-8000-000000000000",
    );
    expect((await past.json()).events).toHaveLength(8);

    const bad = await fe(server!, token, "/account/history?start_from=yesterday");
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      detail: [
        {
          loc: ["query", "start_from"],
          msg: expect.stringMatching(/UUID/),
          type: "uuid_parsing",
          input: "yesterday",
        },
      ],
    });
  });

  it("needs a token", async () => {
    await setUp();
    expect((await fe(server!, null, "/account/history")).status).toBe(401);
    expect((await fe(server!, null, "/account/events/all")).status).toBe(401);
  });
});

describe("GET /fe/account/events/{stream} (history beyond the connection)", () => {
  it("pages one stream newest first by before and after, with more", async () => {
    const { token, append } = await setUp();
    for (let n = 1; n <= 7; n++) await append("incoming", incoming(n));
    const get = async (query: string) =>
      (await fe(server!, token, `/account/events/incoming${query}`)).json();
    const first = await get("?limit=3");
    expect(first.more).toBe(true);
    expect(first.events.map((e: { id: number }) => e.id)).toEqual([7, 6, 5]);
    expect(first.events[0]).toEqual({
      stream: "incoming",
      id: 7,
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      history_id: expect.stringMatching(uuid),
      event: incoming(7),
    });
    const second = await get("?limit=3&before=5");
    expect(second.events.map((e: { id: number }) => e.id)).toEqual([4, 3, 2]);
    expect(second.more).toBe(true);
    expect((await get("?limit=3&before=2")).events.map((e: { id: number }) => e.id)).toEqual([1]);
    expect((await get("?limit=3&before=2")).more).toBe(false);
    const newer = await get("?limit=2&after=3");
    expect(newer.events.map((e: { id: number }) => e.id)).toEqual([5, 4]);
    expect(newer.more).toBe(true);
    expect((await get("?id=4")).events.map((e: { id: number }) => e.id)).toEqual([4]);
    expect((await get("?id=4")).events[0].event).toEqual(incoming(4));
  });

  it("filters by text in any case, type, actor, host and time", async () => {
    const { token, append } = await setUp();
    await append("incoming", incoming(1, "Create", "http://one.example/u/ann"));
    await append("incoming", incoming(2, "Like", "http://two.example/u/cy"));
    await append("outgoing", outgoing(3));
    await append("error", {
      message: ["http://far.example:8080/inbox answered 500"],
      routing_key: "send_message",
      original_message_body: "{}",
      inbox: "http://far.example:8080/inbox",
    });
    const ids = async (stream: string, query: string) =>
      (
        (await (await fe(server!, token, `/account/events/${stream}?${query}`)).json()) as {
          events: { stream: string; id: number }[];
        }
      ).events.map((e) => `${e.stream}${e.id}`);
    expect(await ids("all", "q=MESSAGE%202")).toEqual(["incoming2"]);
    expect(await ids("all", "q=answered")).toEqual(["error1"]);
    expect(await ids("all", "q=100%25")).toEqual([]); // % is text, not a wildcard
    expect(await ids("incoming", "type=Like")).toEqual(["incoming2"]);
    expect(await ids("all", "type=Like")).toEqual(["outgoing1", "incoming2"]);
    expect(await ids("all", "actor=http://one.example/u/ann")).toEqual(["incoming1"]);
    expect(await ids("all", "actor=http://127.0.0.1/actor/me")).toEqual([
      "outgoing1",
      "incoming2",
      "incoming1",
    ]);
    expect(await ids("all", "host=two.example")).toEqual(["incoming2"]);
    expect(await ids("all", "host=far.example:8080")).toEqual(["error1", "outgoing1"]);
    expect(await ids("all", "host=FAR.example")).toEqual(["error1", "outgoing1"]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await ids("all", `since=${future}`)).toEqual([]);
    expect(await ids("incoming", `until=${future}`)).toEqual(["incoming2", "incoming1"]);
    expect(await ids("incoming", "until=2000-01-01T00:00:00Z")).toEqual([]);
  });

  it("merges all streams newest first, and its cursor reaches every event once", async () => {
    const { bob, token, append } = await setUp();
    for (let n = 1; n <= 5; n++) {
      await append("incoming", incoming(n));
      await append("outgoing", outgoing(n));
      await append("error", { message: [`e${n}`], routing_key: "x", original_message_body: "{}" });
    }
    await append("incoming", incoming(6), bob.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=4&before=${cursor}` : "?limit=4";
      const page = await (await fe(server!, token, `/account/events/all${query}`)).json();
      seen.push(...page.events.map((e: { history_id: string }) => e.history_id));
      expect(page.next === null).toBe(!page.more);
      cursor = page.next;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(15);
    expect(new Set(seen).size).toBe(15);
    expect([...seen].sort().reverse()).toEqual(seen);
    // Upwards from the start: after= a cursor, each page the next newer ones.
    const upwards: string[] = [];
    cursor = "i0";
    while (cursor) {
      const page = await (
        await fe(server!, token, `/account/events/all?limit=4&after=${cursor}`)
      ).json();
      upwards.unshift(...page.events.map((e: { history_id: string }) => e.history_id));
      cursor = page.next;
    }
    expect(upwards).toEqual(seen);
    // One event of all by its history_id.
    const one = await (await fe(server!, token, `/account/events/all?id=${seen[3]}`)).json();
    expect(one.events.map((e: { history_id: string }) => e.history_id)).toEqual([seen[3]]);
  });

  it("answers 422 for a stream, limit, bound, time or id it cannot read", async () => {
    const { token } = await setUp();
    const status = async (path: string) => (await fe(server!, token, path)).status;
    expect(await status("/account/events/combined")).toBe(422);
    for (const query of [
      "limit=0",
      "limit=501",
      "limit=ten",
      "before=-1",
      "after=x",
      "since=yesterday",
      "id=x",
    ]) {
      const response = await fe(server!, token, `/account/events/incoming?${query}`);
      expect(response.status, query).toBe(422);
      expect((await response.json()).detail[0].loc[0]).toBe("query");
    }
    expect(await status("/account/events/all?before=7")).toBe(422);
    expect(await status("/account/events/all?limit=500")).toBe(200);
  });
});
