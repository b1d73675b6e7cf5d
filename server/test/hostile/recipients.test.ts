// Issue 16, finding 1: one send_message naming many refused targets wrote one error event per
// target, each carrying the whole body. Rule (server.md §10): one request cannot grow storage
// without bound.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../fresh.ts";
import { addAccount, addActor, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { corral, serveProcess, type ServerProcess } from "../serve-process.ts";
import { watchStream } from "./streams.ts";
import { settle } from "./streams-settle.ts";

// Loopback literals on a closed port: refused before sending, no connection, no DNS.
const refusedTargets = (count: number) =>
  Array.from({ length: count }, (_, i) => `http://127.0.0.1:1/users/u${i}`);

describe("one request cannot grow storage without bound", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ allowPrivateAddresses: false, keepAliveMs: 200 });
  });
  afterAll(() => server?.close());

  // The finding used 2,000 targets (115 MB of events); 500 show the same multiplication at a
  // size a test can afford today (7 MB), and the rule does not depend on the count.
  it("the error events of one trigger together store its body once", async () => {
    await addAccount(server, "sender");
    const token = await signIn(server, "sender");
    const actor = await addActor(server, token);
    const marker = `body-marker-${randomUUID()}`;
    const outgoing = await watchStream(server.url, token, "outgoing");
    const response = await fe(server, token, "/actor/trigger/send_message", {
      body: {
        actor: actor.id,
        data: {
          "@context": "https://www.w3.org/ns/activitystreams",
          type: "Create",
          actor: actor.id,
          to: refusedTargets(500),
          object: { type: "Note", content: marker },
        },
      },
    });
    expect(response.status).toBe(202);
    // The outgoing event is appended after every refusal was reported.
    await outgoing.next((e) => e.data.raw.object?.content === marker, 60_000);
    outgoing.close();

    const errors = await watchStream(server.url, token, "error", { fromStart: true });
    await settle(errors);
    errors.close();
    expect(errors.events().length, "the refusals are reported").toBeGreaterThan(0);
    // At rest: the events of the trigger and its record together hold the body once. (On the
    // wire each error frame is whole, as cattle_grid's ErrorMessage is: the body is filled in
    // from the trigger's record when a stream reads it.)
    const rows = await server.services.db.all<{ data: string }>(
      `SELECT data FROM events WHERE stream = 'error'`,
    );
    const stored = rows.reduce((n, row) => n + row.data.split(marker).length - 1, 0);
    expect(stored, `the body is stored ${stored} times across ${rows.length} events`).toBe(0);
    const frames = errors.frames.filter((f) => f.data?.includes(marker) ?? false);
    expect(frames.length, "every error frame on the wire carries the body").toBe(
      errors.events().length,
    );
  });
});

describe("send_message names at most 10,000 recipients", () => {
  // As a separate process: on today's code this request is accepted and runs away (10,001 error
  // events of a 300 KB body each), and a process can be killed outright.
  let running: ServerProcess | undefined;
  afterAll(() => running?.kill());

  it("answers 422 for 10,001 recipients and runs nothing", async () => {
    const database = freshDatabaseUrl();
    corral(database, "account", "new", "many", "many-password", "--admin");
    running = await serveProcess(database);
    const url = running.url;
    const signin = await fetch(`${url}/fe/signin`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "many", password: "many-password" }),
    });
    const { token } = (await signin.json()) as { token: string };
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const created = await fetch(`${url}/fe/account/create`, {
      method: "POST",
      headers,
      body: JSON.stringify({ baseUrl: url }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const actor = ((await created.json()) as { id: string }).id;
    const response = await fetch(`${url}/fe/actor/trigger/send_message`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        actor,
        data: { type: "Create", actor, to: refusedTargets(10_001), object: { type: "Note" } },
      }),
    });
    await running.kill(); // whatever the answer, nothing may keep running
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(body.detail[0]!.loc[0]).toBe("body");
    expect(JSON.stringify(body.detail)).toMatch(/10[,.]?000/);
  });
});
