import { verifyRequest } from "@fedify/fedify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addAccountWithActor,
  readEvents,
  startCaptureServer,
  waitForEvent,
  type CaptureServer,
} from "./servers.ts";
import { startTestServer, type TestServer } from "../server.ts";
import { freePort } from "../../../test-kit/free-port.ts";

let a: TestServer;
let b: TestServer;
let capture: CaptureServer;
let alice: Awaited<ReturnType<typeof addAccountWithActor>>;
let bob: Awaited<ReturnType<typeof addAccountWithActor>>;

beforeAll(async () => {
  [a, b, capture] = await Promise.all([startTestServer(), startTestServer(), startCaptureServer()]);
  [alice, bob] = await Promise.all([addAccountWithActor(a), addAccountWithActor(b)]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), capture?.close()]);
});

describe("send_message", () => {
  it("delivers data byte for byte, unknown extension properties included, bto and bcc removed", async () => {
    const data = {
      "@context": [
        "https://www.w3.org/ns/activitystreams",
        { weird: "https://example.org/ns#weird" },
      ],
      type: "Create",
      id: `${alice.actorId}/things/1`,
      actor: alice.actorId,
      to: [bob.actorId],
      cc: [capture.actorId],
      bcc: ["https://www.w3.org/ns/activitystreams#Public"],
      weird: { nested: [1, 2.5, "ü ✓"], order: "z before a" },
      object: { type: "Note", zzz: true, aaa: false, content: "<p>bytes</p>" },
    };
    await alice.run("send_message", { data });
    const { bcc: _bcc, ...expected } = data;
    const wire = JSON.stringify(expected);

    const event = await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.raw.id === data.id,
    );
    expect(JSON.stringify(event.data.raw)).toBe(wire);

    const deadline = Date.now() + 10_000;
    while (!capture.requests.some((r) => r.method === "POST") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const post = capture.requests.find((r) => r.method === "POST")!;
    expect(post.body.equals(Buffer.from(wire, "utf8"))).toBe(true);
    // And it was signed by alice: verify it as any remote server would.
    const key = await verifyRequest(
      new Request(`${capture.url}${post.url}`, {
        method: "POST",
        headers: post.headers as Record<string, string>,
        body: post.body,
      }),
      {
        documentLoader: async (url) => ({
          contextUrl: null,
          documentUrl: url,
          document: await (
            await fetch(url, { headers: { Accept: "application/activity+json" } })
          ).json(),
        }),
      },
    );
    expect(key?.ownerId?.href).toBe(alice.actorId);

    const outgoing = await waitForEvent(
      a.services,
      alice.accountId,
      "outgoing",
      (e) => e.data.raw.id === data.id,
    );
    expect(outgoing).toMatchObject({
      actor: alice.actorId,
      event_type: "outgoing",
      history_id: null,
    });
    expect(JSON.stringify(outgoing.data.raw)).toBe(wire);
  });

  it("turns a dead inbox into an error event at once, with the reason and the next attempt", async () => {
    const dead = await startCaptureServer({
      inboxUrl: `http://127.0.0.1:${await freePort()}/inbox`,
    });
    try {
      const data = {
        "@context": "https://www.w3.org/ns/activitystreams",
        type: "Note",
        id: `${alice.actorId}/notes/dead`,
        to: [dead.actorId],
      };
      const started = Date.now();
      await alice.run("send_message", { data });
      const error = await waitForEvent(
        a.services,
        alice.accountId,
        "error",
        (e) => e.inbox?.includes("/inbox") && e.original_message_body.includes("notes/dead"),
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(error).toMatchObject({
        routing_key: "send_message",
        attempt: 1,
        status: null,
        nextAttemptAt: expect.any(String),
        message: [
          expect.stringContaining("failed (attempt 1)"),
          expect.stringContaining("could not be reached"),
          expect.stringContaining("next attempt"),
        ],
      });
      expect(JSON.parse(error.original_message_body)).toEqual({ actor: alice.actorId, data });
      const row = await a.services.db.get<{ attempt: number; next_attempt_at: number }>(
        `SELECT attempt, next_attempt_at FROM deliveries WHERE body_id IN (SELECT id FROM delivery_bodies WHERE body LIKE ?)`,
        ["%notes/dead%"],
      );
      await expect
        .poll(
          async () =>
            (
              await a.services.db.get<{ attempt: number }>(
                `SELECT attempt FROM deliveries WHERE body_id IN (SELECT id FROM delivery_bodies WHERE body LIKE ?)`,
                ["%notes/dead%"],
              )
            )?.attempt,
        )
        .toBe(1);
      expect(row).toBeDefined();
    } finally {
      await dead.close();
    }
  });

  it("reports a target that has no inbox before sending anything", async () => {
    const data = {
      type: "Note",
      id: `${alice.actorId}/notes/noinbox`,
      to: [`${capture.url}/nothing-here`],
    };
    await alice.run("send_message", { data });
    const error = await waitForEvent(a.services, alice.accountId, "error", (e) =>
      e.original_message_body.includes("notes/noinbox"),
    );
    expect(error).toMatchObject({
      final: true,
      message: [expect.stringContaining("refused before sending"), expect.stringContaining("404")],
    });
  });

  it("reports an unknown method and an invalid payload on the error stream", async () => {
    await alice.run("dance", {});
    await alice.run("send_message", { data: "not an object" });
    const errors = await readEvents(a.services, alice.accountId, "error");
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          routing_key: "dance",
          message: [expect.stringContaining('unknown method "dance"'), expect.any(String)],
        }),
        expect.objectContaining({
          routing_key: "send_message",
          message: ['send_message: "data" must be a JSON object'],
        }),
      ]),
    );
  });
});

describe("private addresses", () => {
  it("refuses delivery and lookup to loopback without --allow-private-addresses, saying why", async () => {
    const closed = await startTestServer({ allowPrivateAddresses: false });
    try {
      const carol = await addAccountWithActor(closed);
      const data = { type: "Note", id: `${carol.actorId}/notes/private`, to: [capture.actorId] };
      await carol.run("send_message", { data });
      const error = await waitForEvent(closed.services, carol.accountId, "error", (e) =>
        e.original_message_body.includes("notes/private"),
      );
      expect(error.final).toBe(true);
      expect(error.message.join(" ")).toMatch(
        /private address 127\.0\.0\.1.*--allow-private-addresses/,
      );
      expect(capture.requests.some((r) => r.body.includes("notes/private"))).toBe(false);
    } finally {
      await closed.close();
    }
  });
});
