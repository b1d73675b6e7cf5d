import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCaptureServer, type CaptureServer } from "../../test/federation/servers.ts";
import { freePort } from "../../../test-kit/free-port.ts";
import { parsePrometheus } from "../../test/prometheus.ts";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";
import { openSse } from "../../test/sse.ts";

// Two real servers with --metrics: alice (on a) sends to bob (on b), to an inbox that answers
// 410 and to one nobody listens on; strangers post junk to b's inboxes; someone mistypes a
// password on a. /metrics must count each of these, and nothing else.

let a: TestServer;
let b: TestServer;
let gone: CaptureServer;
let unreachable: CaptureServer;
let token: string;
let alice: { id: string };
let bob: { id: string };

async function scrape(server: TestServer) {
  const response = await fetch(`${server.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await response.text());
}

const sum = (samples: { value: number }[]) => samples.reduce((n, s) => n + s.value, 0);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  const closedPort = await freePort();
  [a, b, gone, unreachable] = await Promise.all([
    startTestServer({ metrics: true }),
    startTestServer({ metrics: true }),
    startCaptureServer({ status: 410 }),
    startCaptureServer({ inboxUrl: `http://127.0.0.1:${closedPort}/inbox` }),
  ]);
  await Promise.all([addAccount(a, "alice"), addAccount(b, "bob")]);
  token = await signIn(a, "alice");
  alice = await addActor(a, token, "alice");
  bob = await addActor(b, await signIn(b, "bob"), "bob");
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), gone?.close(), unreachable?.close()]);
});

describe("GET /metrics", () => {
  it("is 404 without --metrics", async () => {
    const plain = await startTestServer();
    try {
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("counts deliveries by outcome, queue depth and age, triggers and event appends after a send", async () => {
    const send = await fe(a, token, "/actor/trigger/send_message", {
      body: {
        actor: alice.id,
        data: {
          "@context": "https://www.w3.org/ns/activitystreams",
          type: "Create",
          id: `${alice.id}/notes/1`,
          actor: alice.id,
          to: [bob.id, gone.actorId, unreachable.actorId],
          object: { type: "Note", content: "hello" },
        },
      },
    });
    expect(send.status).toBe(202);
    expect(
      (await fe(a, token, "/actor/trigger/no_such_method", { body: { actor: alice.id } })).status,
    ).toBe(202);

    const metrics = await until(
      () => scrape(a),
      // Outcomes reach the table a few milliseconds after they are counted.
      (m) =>
        sum(m.samples.filter((s) => s.name === "corral_deliveries_total")) === 3 &&
        m.value("corral_delivery_queue_depth") === 1,
    );
    expect(metrics.types.get("corral_deliveries_total")).toBe("counter");
    expect(metrics.value("corral_deliveries_total", { role: "all", outcome: "delivered" })).toBe(1);
    expect(metrics.value("corral_deliveries_total", { outcome: "failed" })).toBe(1);
    expect(metrics.value("corral_deliveries_total", { outcome: "retry" })).toBe(1);
    // The unreachable inbox waits for its next attempt.
    expect(metrics.value("corral_delivery_queue_depth", { role: "all" })).toBe(1);
    const age = metrics.value("corral_delivery_queue_oldest_age_seconds");
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(60);
    expect(metrics.value("corral_trigger_seconds_count", { method: "send_message" })).toBe(1);
    expect(metrics.value("corral_trigger_seconds_count", { method: "unknown" })).toBe(1);
    // Every stored event was timed once: per stream, as many as the stream holds.
    const account = (await a.services.db.get<{ id: number }>(
      "SELECT id FROM accounts WHERE name = 'alice'",
    ))!.id;
    for (const stream of ["outgoing", "error"] as const) {
      const stored = await a.services.events.lastSeq(account, stream);
      expect(stored).toBeGreaterThan(0);
      expect(metrics.value("corral_event_append_seconds_count", { stream })).toBe(stored);
    }
    expect(metrics.samples.some((s) => JSON.stringify(s.labels).includes("127.0.0.1"))).toBe(false);
  });

  it("counts inbox activities accepted and refused by reason", async () => {
    const bobInbox = `${bob.id}/inbox`;
    const post = (url: string, body: string) =>
      fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/activity+json" },
        body,
      });
    expect((await post(bobInbox, "not json")).status).toBe(400);
    expect((await post(bobInbox, JSON.stringify({ type: "Create", actor: alice.id }))).status).toBe(
      401,
    );
    expect((await post(`${b.url}/actor/nobody/inbox`, "{}")).status).toBe(404);

    const metrics = await until(
      () => scrape(b),
      (m) => m.value("corral_inbox_activities_total", { outcome: "accepted" }) === 1,
    );
    expect(metrics.value("corral_inbox_activities_total", { outcome: "accepted" })).toBe(1);
    expect(metrics.value("corral_inbox_activities_total", { reason: "malformed" })).toBe(1);
    expect(metrics.value("corral_inbox_activities_total", { reason: "signature" })).toBe(1);
    expect(metrics.value("corral_inbox_activities_total", { reason: "unknown_actor" })).toBe(1);
  });

  it("counts failed sign-ins and open stream subscribers", async () => {
    const wrong = () =>
      fe(a, null, "/signin", { body: { name: "alice", password: "wrong-password" } });
    expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(401);
    await signIn(a, "alice");

    const stream = await openSse(`${a.url}/fe/account/stream/incoming`, {
      Authorization: `Bearer ${token}`,
    });
    await stream.waitFor((frame) => frame.comment === "connected");
    let metrics = await scrape(a);
    expect(metrics.value("corral_signin_failures_total", { reason: "wrong_credentials" })).toBe(2);
    expect(metrics.value("corral_stream_subscribers")).toBe(1);

    stream.close();
    metrics = await until(
      () => scrape(a),
      (m) => m.value("corral_stream_subscribers") === 0,
    );
    expect(metrics.value("corral_stream_subscribers")).toBe(0);
  });
});
