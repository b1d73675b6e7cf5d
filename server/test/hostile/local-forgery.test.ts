// Issue 16, finding 3: delivery between actors of the same server skipped signatures and trusted
// `data.actor`. Rule (docs/server-guide.md#untrusted-input): an activity whose `actor` is not the sending
// actor is refused for local recipients as a remote inbox would refuse it (an error event says
// why), and nothing is recorded from it.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccount, addActor, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { startRemoteActor, type RemoteActor } from "./remote-actor.ts";
import { watchStream, type StreamWatch } from "./streams.ts";

const AS = "https://www.w3.org/ns/activitystreams";

let server: TestServer;
let remote: RemoteActor;
let x: { token: string; actor: string; errors: StreamWatch };
let y: { token: string; actor: string; incoming: StreamWatch };

beforeAll(async () => {
  [server, remote] = await Promise.all([startTestServer(), startRemoteActor()]);
  await Promise.all([addAccount(server, "xavier"), addAccount(server, "yolanda")]);
  const [xToken, yToken] = await Promise.all([signIn(server, "xavier"), signIn(server, "yolanda")]);
  const [xActor, yActor] = await Promise.all([addActor(server, xToken), addActor(server, yToken)]);
  x = { token: xToken, actor: xActor.id, errors: await watchStream(server.url, xToken, "error") };
  y = {
    token: yToken,
    actor: yActor.id,
    incoming: await watchStream(server.url, yToken, "incoming"),
  };
  const auto = await fe(server, yToken, "/actor/trigger/update_actor", {
    body: { actor: y.actor, autoFollow: true },
  });
  expect(auto.status).toBe(202);
  // The trigger runs after its 202; the actor document tells when autoFollow is on.
  await until(async () => {
    const document = await fetch(y.actor, { headers: { Accept: "application/activity+json" } });
    return (
      ((await document.json()) as { manuallyApprovesFollowers?: boolean })
        .manuallyApprovesFollowers === false
    );
  }, 10_000);
});
afterAll(async () => {
  x?.errors.close();
  y?.incoming.close();
  await Promise.all([server?.close(), remote?.close()]);
});

/** X sends `data` with send_message. */
async function sendAsX(data: Record<string, unknown>) {
  const response = await fe(server, x.token, "/actor/trigger/send_message", {
    body: { actor: x.actor, data: { "@context": AS, ...data } },
  });
  expect(response.status).toBe(202);
}

/** An honest note from X to Y, sent after `id`: once Y has it, the earlier one was handled. */
async function fence() {
  const id = `${x.actor}/fence/${randomUUID()}`;
  await sendAsX({ id, type: "Create", actor: x.actor, to: [y.actor], object: { type: "Note" } });
  await y.incoming.next((e) => e.data.raw.id === id);
}

/**
 * An error event's lines (cattle_grid's ErrorMessage: `message`, docs/server-guide.md#streams), as one
 * string.
 */
function reasonOf(error: Record<string, unknown>): string {
  const message = error.message ?? (error.data as { message?: unknown } | undefined)?.message;
  return Array.isArray(message) ? message.join(" ") : String(message);
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("delivery between actors of the same server", () => {
  it("refuses an activity whose actor is not the sending actor: nothing for the recipient, an error event says why", async () => {
    const id = `${remote.actorId}/forged/${randomUUID()}`;
    await sendAsX({
      id,
      type: "Create",
      actor: remote.actorId,
      to: [y.actor],
      object: { type: "Note", content: "forged" },
    });
    await fence();
    expect(y.incoming.events().filter((e) => e.data.raw.id === id)).toEqual([]);
    const error = await x.errors.next((e) => JSON.stringify(e).includes(id), 5_000);
    expect(reasonOf(error)).toMatch(/actor .* is not its sender/i);
  });

  it("records no follower and sends no Accept for a Follow forged from a remote actor", async () => {
    const id = `${remote.actorId}/follow/${randomUUID()}`;
    await sendAsX({ id, type: "Follow", actor: remote.actorId, object: y.actor, to: [y.actor] });
    await fence();
    // autoFollow accepts in the background: wait for the refusal, or for the Accept it sends.
    await Promise.race([
      x.errors.next((e) => JSON.stringify(e).includes(id), 10_000),
      until(() => remote.requests.some((r) => r.method === "POST"), 10_000),
    ]).catch(() => {});
    expect(remote.requests.filter((r) => r.method === "POST")).toEqual([]);
    const followers = await fetch(`${y.actor}/followers`, {
      headers: { Accept: "application/activity+json" },
    });
    expect(followers.status).toBe(200);
    expect(((await followers.json()) as { totalItems: number }).totalItems).toBe(0);
    expect(y.incoming.events().filter((e) => e.data.raw.id === id)).toEqual([]);
    const error = await x.errors.next((e) => JSON.stringify(e).includes(id), 5_000);
    expect(reasonOf(error)).toMatch(/actor .* is not its sender/i);
  });
});
