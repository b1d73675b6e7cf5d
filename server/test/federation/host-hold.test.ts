// Issue 28 item 4 (docs/server-guide.md#delivery: "Holding a failing host", "Backlog"): a host whose
// every attempt over 10 minutes and 5 attempts failed is held, probed by one delivery, and
// released at once by the first success; Retry-After sets the earliest next attempt; an inbox
// that answered 410 is not tried again until its host answers elsewhere.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addActor, addAccount, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { startRemoteActor, type RemoteActor } from "../hostile/remote-actor.ts";

let server: TestServer;
let token: string;
let actor: string;
const remotes: RemoteActor[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await addAccount(server, "ines");
  token = await signIn(server, "ines");
  actor = (await addActor(server, token)).id;
});
afterAll(async () => {
  await Promise.all([server?.close(), ...remotes.map((r) => r.close())]);
});

async function peer() {
  const remote = await startRemoteActor();
  remotes.push(remote);
  return remote;
}

async function send(to: string) {
  const id = `${actor}/activities/${randomUUID()}`;
  const response = await fe(server, token, "/actor/trigger/send_message", {
    body: {
      actor,
      data: { id, type: "Create", actor, to: [to], object: { type: "Note", content: "hi" } },
    },
  });
  expect(response.status).toBe(202);
  return { id, trigger: response.headers.get("Corral-Trigger-Id")! };
}

type Delivery = {
  state: string;
  status: number | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
};
async function deliveryWhen(trigger: string, done: (d: Delivery) => boolean) {
  let delivery: Delivery | undefined;
  await expect
    .poll(
      async () => {
        const record = await (await fe(server, token, `/actor/triggers/${trigger}`)).json();
        delivery = record.deliveries[0];
        return delivery !== undefined && done(delivery);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return delivery!;
}

const posted = (remote: RemoteActor, id: string) =>
  remote.requests.filter((r) => r.method === "POST" && r.body.includes(id)).length;

describe("holding a failing host", () => {
  it("holds a host after 5 failed attempts over 10 minutes, probes it, and releases the rest on a success", async () => {
    const remote = await peer();
    const host = new URL(remote.base).host;
    remote.postAnswer = { status: 503, body: "down for maintenance" };
    const sent = [];
    for (let n = 0; n < 5; n++) sent.push(await send(remote.actorId));
    for (const { trigger } of sent) await deliveryWhen(trigger, (d) => d.attempts === 1);
    // The five failures began 11 minutes ago (as if the clock had moved on).
    await server.services.db.run(`UPDATE hosts SET failing_since = ? WHERE host = ?`, [
      Date.now() - 11 * 60_000,
      host,
    ]);
    const probe = await send(remote.actorId);
    await deliveryWhen(probe.trigger, (d) => d.attempts === 1);
    sent.push(probe);

    const detail = await (await fe(server, token, `/account/hosts/${host}`)).json();
    expect(detail.hold).toMatchObject({
      reason: expect.stringMatching(/all 6 attempts over 11 min failed/),
    });
    const probeAt = Date.parse(detail.hold.nextProbeAt);
    expect(probeAt).toBeGreaterThan(Date.now());
    // The others wait behind the probe.
    for (const { trigger } of sent.slice(0, 5)) {
      const waiting = await deliveryWhen(trigger, () => true);
      expect(Date.parse(waiting.nextAttemptAt!)).toBeGreaterThan(probeAt);
    }
    const backlog = await (await fe(server, token, "/account/backlog")).json();
    expect(backlog).toMatchObject({ waiting: 6, retrying: 6, nearGiveUp: 0 });
    expect(backlog.worstHosts[0]).toMatchObject({ host, waiting: 6 });
    expect(backlog.oldestWaitingAgeS).toBeGreaterThanOrEqual(0);

    // The probe answers: what waited goes at once, each once.
    remote.postAnswer = { status: 202 };
    await fe(server, token, `/actor/triggers/${probe.trigger}/redeliver`, { body: {} });
    for (const { trigger } of sent) await deliveryWhen(trigger, (d) => d.state === "delivered");
    // One refused attempt and one delivery each.
    for (const { id } of sent) expect(posted(remote, id)).toBe(2);
    const after = await (await fe(server, token, `/account/hosts/${host}`)).json();
    expect(after.hold).toBeNull();
  });

  it("takes Retry-After as the earliest next attempt", async () => {
    const remote = await peer();
    remote.postAnswer = { status: 429, headers: { "Retry-After": "3600" } };
    const { trigger } = await send(remote.actorId);
    const delivery = await deliveryWhen(trigger, (d) => d.attempts === 1);
    expect(delivery.status).toBe(429);
    expect(Date.parse(delivery.nextAttemptAt!)).toBeGreaterThan(Date.now() + 3500_000);
  });

  it("does not try an inbox that answered 410 until its host answers elsewhere", async () => {
    const remote = await peer();
    remote.postAnswer = { status: 410, body: "gone" };
    const first = await send(remote.actorId);
    await deliveryWhen(first.trigger, (d) => d.state === "failed" && d.status === 410);
    remote.postAnswer = { status: 202 };
    const second = await send(remote.actorId);
    const refused = await deliveryWhen(second.trigger, (d) => d.state === "refused");
    expect(refused.lastError).toMatch(/answered 410 Gone .*not tried until/);
    expect(posted(remote, second.id)).toBe(0);

    // Another actor on the same host, with its own inbox, answers: the gone inbox is tried again.
    const other = `${remote.base}/other`;
    remote.serve(
      "/other",
      JSON.stringify({ id: other, type: "Person", inbox: `${remote.base}/other/inbox` }),
    );
    const elsewhere = await send(other);
    await deliveryWhen(elsewhere.trigger, (d) => d.state === "delivered");
    const third = await send(remote.actorId);
    await deliveryWhen(third.trigger, (d) => d.state === "delivered");
    expect(posted(remote, third.id)).toBe(1);
  });
});
