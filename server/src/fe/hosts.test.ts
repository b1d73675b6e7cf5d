import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";
import { startCaptureServer, type CaptureServer } from "../../test/federation/servers.ts";
import { freePort } from "../../../test-kit/free-port.ts";
import { openSse } from "../../test/sse.ts";

// Outcomes land a moment after the remote answers; PostgreSQL takes longer than SQLite.
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
// A wait for an event that ends only with the test (its timeout in vitest.config.ts bounds it).
const UNBOUNDED_MS = 2 ** 31 - 1;

// Delivery health against real second servers: one answering 202, one 500 until fixed, one not
// listening at all until it is started; across stop, resume and retry no delivery is lost or
// doubled.

let server: TestServer | undefined;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  await Promise.all(closers.splice(0).map((close) => close()));
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function setUp() {
  server = await startTestServer();
  await addAccount(server, "alice");
  await addAccount(server, "bob");
  const token = await signIn(server, "alice");
  const other = await signIn(server, "bob");
  const actor = await addActor(server, token, "alice");
  const send = async (target: string, n: number) => {
    const response = await fe(server!, token, "/actor/trigger/send_message", {
      body: { actor: actor.id, data: { type: "Note", content: `n${n}`, to: [target] } },
    });
    expect(response.status).toBe(202);
    return response.headers.get("Corral-Trigger-Id")!;
  };
  const hosts = async (): Promise<Json[]> => (await fe(server!, token, "/account/hosts")).json();
  const host = async (name: string): Promise<Json> => (await hosts()).find((h) => h.host === name);
  const act = (name: string, action: string, as = token) =>
    fe(server!, as, `/account/hosts/${encodeURIComponent(name)}/${action}`, { method: "POST" });
  return { token, other, send, hosts, host, act };
}

async function capture(options: { status: number } | { inboxUrl: string }) {
  const remote: CaptureServer = await startCaptureServer(options);
  closers.push(() => remote.close());
  return { remote, name: new URL(remote.url).host };
}

const notes = (remote: { requests: { method: string; body: Buffer }[] }) =>
  remote.requests
    .filter((r) => r.method === "POST")
    .map((r) => JSON.parse(r.body.toString()).content as string)
    .sort();

describe("delivery health per host", () => {
  it("holds a stopped host's deliveries as stopped and sends each exactly once on resume", async () => {
    const { send, host, act, other, token } = await setUp();
    const { remote, name } = await capture({ status: 202 });
    await send(remote.actorId, 0);
    await poll(() => notes(remote)).toEqual(["n0"]);
    // The outcome is written just after the answer arrives.
    await poll(async () => (await host(name))?.queued).toBe(0);
    expect(await host(name)).toMatchObject({ state: "ok", failures7d: 0, failed: [] });

    expect((await act(name, "stop")).status).toBe(204);
    const held = await Promise.all([1, 2, 3].map((n) => send(remote.actorId, n)));
    await poll(async () => (await host(name)).queued).toBe(3);
    expect((await host(name)).state).toBe("stopped");
    const record = await (await fe(server!, token, `/actor/triggers/${held[0]}`)).json();
    expect(record.deliveries).toMatchObject([{ state: "stopped", attempts: 0 }]);
    expect(notes(remote)).toEqual(["n0"]);

    // Another account's operator cannot touch it: the host is not one it delivered to.
    expect((await act(name, "resume", other)).status).toBe(404);
    expect((await act(name, "resume")).status).toBe(202);
    await poll(() => notes(remote)).toEqual(["n0", "n1", "n2", "n3"]);
    await poll(async () => (await host(name)).queued).toBe(0);
    expect((await host(name)).state).toBe("ok");
    expect(notes(remote)).toEqual(["n0", "n1", "n2", "n3"]);
  });

  it("shows a 500ing host as failing, and Retry sends its deliveries again now, once each", async () => {
    const { send, host, act } = await setUp();
    const options = { status: 500 };
    const { remote, name } = await capture(options);
    await Promise.all([1, 2].map((n) => send(remote.actorId, n)));
    await poll(async () => (await host(name)).failures7d).toBe(2);
    const failing = await host(name);
    expect(failing).toMatchObject({ state: "failing", queued: 2, lastSuccessAt: null });
    expect(failing.failuresByDay.at(-1)).toBe(2);
    expect(Date.parse(failing.lastFailureAt)).toBeGreaterThan(Date.now() - 60_000);

    options.status = 202;
    expect((await act(name, "retry")).status).toBe(202);
    await poll(async () => (await host(name)).state).toBe("ok");
    await poll(async () => (await host(name)).queued).toBe(0);
    expect(notes(remote)).toEqual(["n1", "n1", "n2", "n2"]); // one failed attempt, one delivery each
  });

  it("holds deliveries for a host that does not answer, and delivers them when it is back and resumed", async () => {
    const { send, host, act, token } = await setUp();
    const port = await freePort();
    const { remote, name: actorHost } = await capture({
      inboxUrl: `http://127.0.0.1:${port}/inbox`,
    });
    const name = `127.0.0.1:${port}`;
    // Each failed attempt is written (with its host's count) before its error event is sent:
    // waiting for the two events, not for a time, holds however slow a loaded machine is.
    const errors = await openSse(`${server!.url}/fe/account/stream/error`, {
      Authorization: `Bearer ${token}`,
    });
    closers.push(async () => errors.close());
    const inbox = `http://127.0.0.1:${port}/inbox`;
    await Promise.all([1, 2].map((n) => send(remote.actorId, n)));
    await errors.waitFor(
      () => errors.frames.filter((frame) => frame.data?.includes(inbox)).length >= 2,
      UNBOUNDED_MS,
    );
    expect((await host(name)).failures7d).toBe(2);
    expect((await host(name)).failed).toEqual([]); // retrying, not given up
    expect(await host(actorHost)).toBeUndefined(); // its document was fetched, nothing delivered
    expect((await act(name, "stop")).status).toBe(204);
    expect(await host(name)).toMatchObject({ state: "stopped", queued: 2 });

    // The host comes back; nothing goes there until the operator resumes it.
    const arrived: string[] = [];
    let bothArrived!: () => void;
    const both = new Promise<void>((resolve) => (bothArrived = resolve));
    const back: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        arrived.push(JSON.parse(body).content);
        res.writeHead(202).end();
        if (arrived.length === 2) bothArrived();
      });
    });
    await new Promise<void>((resolve) => back.listen(port, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => back.close(resolve)));
    expect((await act(name, "retry")).status).toBe(202); // held: retry does not lift a stop
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(arrived).toEqual([]);
    expect((await act(name, "resume")).status).toBe(202);
    await both;
    expect([...arrived].sort()).toEqual(["n1", "n2"]);
    await poll(async () => (await host(name)).state).toBe("ok");
    expect(arrived).toHaveLength(2);
  });

  it("tries a host failing for 7 days on end once an hour (one probe, the rest behind it) until Retry or an answer", async () => {
    const { send, host, act, token } = await setUp();
    const options = { status: 500 };
    const { remote, name } = await capture(options);
    const id = await send(remote.actorId, 1);
    await poll(async () => (await host(name)).failures7d).toBe(1);
    // Its run of failures began 8 days ago; the next failure opens the breaker.
    await server!.services.db.run(`UPDATE hosts SET failing_since = ? WHERE host = ?`, [
      Date.now() - 8 * 86_400_000,
      name,
    ]);
    expect((await fe(server!, token, `/actor/triggers/${id}/redeliver`, { body: {} })).status).toBe(
      202,
    );
    await poll(async () => (await host(name)).failures7d).toBe(2);
    const record = async () => (await fe(server!, token, `/actor/triggers/${id}`)).json();
    const [held] = (await record()).deliveries;
    expect(Date.parse(held.nextAttemptAt)).toBeGreaterThan(Date.now() + 59 * 60_000);
    // A new message to the host waits for the same hour.
    const later = await send(remote.actorId, 2);
    const laterRecord = async () => (await fe(server!, token, `/actor/triggers/${later}`)).json();
    await poll(async () => (await laterRecord()).deliveries.length).toBe(1);
    const [queued] = (await laterRecord()).deliveries;
    expect(queued).toMatchObject({ state: "queued", attempts: 0 });
    expect(Date.parse(queued.nextAttemptAt)).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect((await host(name)).failingSince).not.toBeNull();

    // Retry lifts the breaker: both are tried now, and retried on the usual schedule after.
    expect((await act(name, "retry")).status).toBe(202);
    await poll(async () => (await host(name)).failures7d).toBe(4);
    expect(notes(remote)).toEqual(["n1", "n1", "n1", "n2"]);
    const [lifted] = (await record()).deliveries;
    expect(Date.parse(lifted.nextAttemptAt)).toBeLessThan(Date.now() + 10 * 60_000);

    // Open again; the host answers its hourly probe (made due now): what waited goes at once.
    const db = server!.services.db;
    await db.run(`UPDATE hosts SET failing_since = ? WHERE host = ?`, [
      Date.now() - 8 * 86_400_000,
      name,
    ]);
    await db.run(`UPDATE deliveries SET next_attempt_at = ? WHERE trigger_id = ?`, [0, id]);
    await db.run(`UPDATE deliveries SET next_attempt_at = ? WHERE trigger_id = ?`, [
      Date.now() + 2 * 3600_000,
      later,
    ]);
    options.status = 202;
    await poll(() => notes(remote)).toEqual(["n1", "n1", "n1", "n1", "n2", "n2"]);
    await poll(async () => (await host(name)).state).toBe("ok");
  });

  it("lists a host's given-up deliveries with their trigger, and Retry sends them again", async () => {
    const { send, host, act } = await setUp();
    const options = { status: 410 };
    const { remote, name } = await capture(options);
    const id = await send(remote.actorId, 1);
    await poll(async () => (await host(name)).failed.length).toBe(1);
    const gone = await host(name);
    expect(gone).toMatchObject({ state: "failing", queued: 0, failures7d: 1 });
    expect(gone.failed).toEqual([
      {
        inbox: `${remote.url}/inbox`,
        status: 410,
        attempts: 1,
        lastError: expect.stringContaining("answered 410"),
        triggerId: id,
      },
    ]);
    options.status = 202;
    expect((await act(name, "retry")).status).toBe(202);
    await poll(async () => (await host(name)).state).toBe("ok");
    expect((await host(name)).failed).toEqual([]);
    expect(notes(remote)).toEqual(["n1", "n1"]);
  });

  it("answers 404 for a host the account never delivered to", async () => {
    const { act, hosts } = await setUp();
    expect(await hosts()).toEqual([]);
    for (const action of ["stop", "resume", "retry"])
      expect((await act("nowhere.example", action)).status).toBe(404);
  });
});
