import { afterEach, describe, expect, it } from "vitest";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";
import {
  readEvents,
  startCaptureServer,
  type CaptureServer,
} from "../../test/federation/servers.ts";
import { freePort } from "../../../test-kit/free-port.ts";

// Outcomes land a moment after the remote answers; PostgreSQL takes longer than SQLite.
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

// A trigger's record against real second servers: one answering 200, one 500 (until it is
// fixed), one whose inbox is on a port nothing listens on.

let server: TestServer | undefined;
const remotes: CaptureServer[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  await Promise.all(remotes.splice(0).map((r) => r.close()));
});

async function setUp() {
  server = await startTestServer();
  const account = await addAccount(server, "alice");
  await addAccount(server, "bob");
  const token = await signIn(server, "alice");
  const other = await signIn(server, "bob");
  const actor = await addActor(server, token, "alice");
  const badOptions: { status: number } = { status: 500 };
  const ok = await startCaptureServer({ status: 200 });
  const bad = await startCaptureServer(badOptions);
  const deadInbox = `http://127.0.0.1:${await freePort()}/inbox`;
  const dead = await startCaptureServer({ inboxUrl: deadInbox });
  remotes.push(ok, bad, dead);
  return { token, other, actor, accountId: account.id, ok, bad, dead, deadInbox, badOptions };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Record_ = any;

async function record(token: string, id: string): Promise<Record_> {
  const response = await fe(server!, token, `/actor/triggers/${id}`);
  expect(response.status).toBe(200);
  return response.json();
}

const byInbox = (rec: Record_, inbox: string) =>
  rec.deliveries.find((d: { inbox: string }) => d.inbox === inbox);

describe("a trigger's record", () => {
  it("says per inbox what happened (200, 500, refused connection) and redelivers the failed ones", async () => {
    const { token, other, actor, accountId, ok, bad, dead, deadInbox, badOptions } = await setUp();
    const response = await fe(server!, token, "/actor/trigger/send_message", {
      body: {
        actor: actor.id,
        data: { type: "Note", content: "hi", to: [ok.actorId, bad.actorId, dead.actorId] },
      },
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("null");
    const id = response.headers.get("Corral-Trigger-Id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    await poll(async () => (await record(token, id)).deliveries.length).toBe(3);
    await poll(async () =>
      (await record(token, id)).deliveries.map((d: Record_) => d.attempts),
    ).toEqual([1, 1, 1]);
    // Error events follow their attempt's outcome: wait for both.
    await poll(async () => (await record(token, id)).events.length).toBe(3);
    const first = await record(token, id);
    expect(first).toMatchObject({
      id,
      method: "send_message",
      actor: actor.id,
      state: "done",
      error: null,
      // The call's body without its actor: what "Open in Perform" opens again.
      data: { data: { type: "Note", content: "hi", to: [ok.actorId, bad.actorId, dead.actorId] } },
    });
    expect(Date.parse(first.receivedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(byInbox(first, `${ok.url}/inbox`)).toMatchObject({
      state: "delivered",
      status: 200,
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(byInbox(first, `${ok.url}/inbox`).deliveredAt).not.toBeNull();
    const failing = byInbox(first, `${bad.url}/inbox`);
    expect(failing).toMatchObject({ state: "retrying", status: 500, attempts: 1 });
    expect(failing.lastError).toContain("answered 500");
    expect(Date.parse(failing.nextAttemptAt)).toBeGreaterThan(Date.now());
    const unreachable = byInbox(first, deadInbox);
    expect(unreachable).toMatchObject({ state: "retrying", status: null, attempts: 1 });
    expect(unreachable.lastError).toMatch(/could not be reached/);

    // Every event it caused carries its id, and the record lists them.
    const outgoing = await readEvents(server!.services, accountId, "outgoing");
    const errors = await readEvents(server!.services, accountId, "error");
    expect(outgoing.map((e) => e.trigger_id)).toEqual([id]);
    expect(errors.map((e) => e.trigger_id)).toEqual([id, id]);
    // The body is stored once, with the trigger, and read back into every error event.
    const sent = {
      actor: actor.id,
      data: { type: "Note", content: "hi", to: [ok.actorId, bad.actorId, dead.actorId] },
    };
    for (const error of errors) expect(JSON.parse(error.original_message_body)).toEqual(sent);
    const stored = await server!.services.db.all<{ data: string }>(
      `SELECT data FROM events WHERE stream = 'error'`,
    );
    expect(stored.filter((row) => row.data.includes("original_message_body"))).toEqual([]);
    expect(await server!.services.db.all(`SELECT DISTINCT original FROM deliveries`)).toEqual([
      { original: "" },
    ]);
    expect(first.events).toEqual([
      { stream: "outgoing", id: 1 },
      { stream: "error", id: 1 },
      { stream: "error", id: 2 },
    ]);

    // The 500 server is fixed; redelivering its inbox alone delivers it, and only it.
    badOptions.status = 200;
    const again = await fe(server!, token, `/actor/triggers/${id}/redeliver`, {
      body: { inbox: `${bad.url}/inbox` },
    });
    expect(again.status).toBe(202);
    await poll(async () => byInbox(await record(token, id), `${bad.url}/inbox`).state).toBe(
      "delivered",
    );
    const second = await record(token, id);
    expect(byInbox(second, `${bad.url}/inbox`)).toMatchObject({ status: 200, attempts: 2 });
    expect(byInbox(second, deadInbox)).toMatchObject({ state: "retrying", attempts: 1 });

    // Without an inbox: every failed one, here the unreachable one, is tried again at once.
    expect((await fe(server!, token, `/actor/triggers/${id}/redeliver`, { body: {} })).status).toBe(
      202,
    );
    await poll(async () => byInbox(await record(token, id), deadInbox).attempts).toBe(2);
    expect(ok.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(bad.requests.filter((r) => r.method === "POST")).toHaveLength(2);

    // Another account's caller sees nothing of it.
    expect((await fe(server!, other, `/actor/triggers/${id}`)).status).toBe(404);
    expect((await fe(server!, other, `/actor/triggers/${id}/redeliver`, { body: {} })).status).toBe(
      404,
    );
    expect((await fe(server!, token, `/actor/triggers/not-an-id`)).status).toBe(404);
  });

  it("records a method that fails as failed, with the reason, and its error event carries the id", async () => {
    const { token, actor, accountId } = await setUp();
    const response = await fe(server!, token, "/actor/trigger/frobnicate", {
      body: { actor: actor.id },
    });
    expect(response.status).toBe(202);
    const id = response.headers.get("Corral-Trigger-Id")!;
    await poll(async () => (await record(token, id)).state).toBe("failed");
    const rec = await record(token, id);
    expect(rec.error).toMatch(/unknown method "frobnicate"/);
    expect(rec.deliveries).toEqual([]);
    const [event] = await readEvents(server!.services, accountId, "error");
    expect(event).toMatchObject({ routing_key: "frobnicate", trigger_id: id });
    // Redeliver checks its body like every /fe route.
    const bad = await fe(server!, token, `/actor/triggers/${id}/redeliver`, { body: { inbox: 5 } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].loc).toEqual(["body", "inbox"]);
    const nothing = await fe(server!, token, `/actor/triggers/${id}/redeliver`, { method: "POST" });
    expect(nothing.status).toBe(202);
  });
});
