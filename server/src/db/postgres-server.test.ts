import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";
import { createTestDatabase, type TestDatabase } from "../../test/db/postgres-test-database.ts";

// The /fe API on PostgreSQL, in-process: real servers, real HTTP, one fresh database per test.
// Two servers on one database stand for two processes sharing the work
// (docs/operations.md#several-processes-on-one-postgresql).

const databases: TestDatabase[] = [];
const servers: TestServer[] = [];
const streams: AbortController[] = [];
afterEach(async () => {
  streams.splice(0).forEach((c) => c.abort());
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
});

async function freshDatabase(): Promise<string> {
  const database = await createTestDatabase();
  databases.push(database);
  return database.url;
}

async function startOn(database: string): Promise<TestServer> {
  const server = await startTestServer({ database });
  servers.push(server);
  return server;
}

/** Opens an event stream and returns a function that waits for its next `id:` frame. */
async function openStream(server: TestServer, token: string, stream: string) {
  const controller = new AbortController();
  streams.push(controller);
  const response = await fetch(`${server.url}/fe/account/stream/${stream}`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  // The stream starts "from now on" once it said so; an event stored before then is not news.
  while (!buffer.includes(": connected\n\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the ${stream} stream ended before it was connected`);
    buffer += value;
  }
  return async function nextEvent(): Promise<{ id: number; data: Record<string, unknown> }> {
    const deadline = setTimeout(() => controller.abort(), 10_000);
    try {
      for (;;) {
        const match = /id: (\d+)\ndata: (.*)\n\n/.exec(buffer);
        if (match) {
          buffer = buffer.slice(match.index + match[0].length);
          return { id: Number(match[1]), data: JSON.parse(match[2]!) as Record<string, unknown> };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`the ${stream} stream ended before an event arrived`);
        buffer += value;
      }
    } finally {
      clearTimeout(deadline);
    }
  };
}

describe("the /fe API on PostgreSQL", () => {
  it("signs in, creates an actor and streams the event a method caused", async () => {
    const server = await startOn(await freshDatabase());
    expect(server.services.db.dialect).toBe("postgres");
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const actor = await addActor(server, token, "alice");
    const info = (await (await fe(server, token, "/account/info")).json()) as {
      actors: { id: string }[];
    };
    expect(info.actors.map((a) => a.id)).toEqual([actor.id]);

    const nextError = await openStream(server, token, "error");
    const trigger = await fe(server, token, "/actor/trigger/no_such_method", {
      body: { actor: actor.id },
    });
    expect(trigger.status).toBe(202);
    const event = await nextError();
    expect(event.id).toBe(1);
    expect(event.data).toMatchObject({ routing_key: "no_such_method" });
  });

  it("answers 409 Duplicate identifier when the handle is taken", async () => {
    const server = await startOn(await freshDatabase());
    await addAccount(server, "bob");
    const token = await signIn(server, "bob");
    await addActor(server, token, "bob");
    const again = await fe(server, token, "/account/create", {
      body: { baseUrl: server.url, handle: "bob" },
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ detail: "Duplicate identifier" });
  });

  it("streams to a subscriber on one process what a method run on another process caused", async () => {
    const database = await freshDatabase();
    const first = await startOn(database);
    const second = await startOn(database);
    await addAccount(first, "carol");
    const token = await signIn(first, "carol"); // tokens live in the shared database
    const actor = await addActor(first, token);
    const onSecond = await openStream(second, token, "error");
    const onFirst = await openStream(first, token, "error");
    // Methods run after the 202, so each waits for the previous event to have arrived.
    await fe(first, token, "/actor/trigger/first_unknown", { body: { actor: actor.id } });
    const fromFirst = await onSecond();
    await fe(second, token, "/actor/trigger/second_unknown", { body: { actor: actor.id } });
    const fromSecond = await onSecond();
    expect([fromFirst, fromSecond].map((e) => [e.id, e.data.routing_key])).toEqual([
      [1, "first_unknown"],
      [2, "second_unknown"],
    ]);
    expect((await onFirst()).id).toBe(1);
    expect((await onFirst()).id).toBe(2);
  });
});
