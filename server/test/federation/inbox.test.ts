import { request as httpRequest } from "node:http";
import { signRequest } from "@fedify/fedify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSigner } from "../../src/activitypub/local-keys.ts";
import { addAccountWithActor, readEvents, waitForEvent } from "./servers.ts";
import { startTestServer, type TestServer } from "../server.ts";

// Two real servers; requests signed with real actor keys from one, posted to the other's inbox.

let a: TestServer;
let b: TestServer;
let alice: Awaited<ReturnType<typeof addAccountWithActor>>;
let bob: Awaited<ReturnType<typeof addAccountWithActor>>;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  [alice, bob] = await Promise.all([addAccountWithActor(a), addAccountWithActor(b)]);
  for (const [server, actor] of [
    [a, alice],
    [b, bob],
  ] as const) {
    const row = await server.services.db.get<{ name: string }>(
      `SELECT name FROM accounts WHERE id = ?`,
      [actor.accountId],
    );
    accountNames.set(actor.actorId, row!.name);
  }
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

function note(text: string, actor = alice.actorId) {
  return {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${actor}/activities/${Math.random().toString(36).slice(2)}`,
    type: "Create",
    actor,
    to: [bob.actorId],
    object: {
      id: `${actor}/notes/${Math.random().toString(36).slice(2)}`,
      type: "Note",
      attributedTo: actor,
      to: [bob.actorId],
      content: text,
    },
  };
}

/** servers.ts's addActor names each actor's handle after its account. */
const preferredUsernameOf = (actorId: string) => accountNames.get(actorId);
const accountNames = new Map<string, string>();

async function signedPost(
  url: string,
  body: string,
  spec?: "rfc9421" | "draft-cavage-http-signatures-12",
) {
  const signer = (await loadSigner(a.services.db, alice.actorId))!;
  const request = new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/activity+json" },
    body,
  });
  return signRequest(request, signer.privateKey, signer.keyId, spec ? { spec } : {});
}

describe("inbox", () => {
  it("accepts a draft-cavage signed activity and puts it on the addressed account's incoming stream", async () => {
    const activity = note("draft cavage");
    const response = await fetch(
      await signedPost(`${bob.actorId}/inbox`, JSON.stringify(activity)),
    );
    expect(response.status).toBe(202);
    const event = await waitForEvent(
      b.services,
      bob.accountId,
      "incoming",
      (e) => e.data.raw.id === activity.id,
    );
    expect(event).toEqual({
      actor: bob.actorId,
      event_type: "incoming",
      data: {
        raw: activity,
        parsed: expect.objectContaining({
          activity: expect.objectContaining({ type: "Create", actor: alice.actorId }),
        }),
      },
      history_id: null,
      trigger_id: null, // not caused by a trigger of ours
      // From the actor document bob's server fetched alice's key from; nothing fetched for it.
      actor_info: {
        id: alice.actorId,
        handle: `@${preferredUsernameOf(alice.actorId)}@${new URL(alice.actorId).host}`,
        name: null,
      },
    });
    expect(event.data.parsed.embedded_object).toMatchObject({
      type: "Note",
      content: "draft cavage",
      contentPlain: "draft cavage",
    });
  });

  it("accepts an RFC 9421 signature at the shared inbox and routes by addressing", async () => {
    const activity = note("rfc 9421");
    const response = await fetch(
      await signedPost(`${b.url}/inbox`, JSON.stringify(activity), "rfc9421"),
    );
    expect(response.status).toBe(202);
    await waitForEvent(b.services, bob.accountId, "incoming", (e) => e.data.raw.id === activity.id);
  });

  it("refuses a tampered body with 401 and puts nothing on a stream", async () => {
    const activity = note("original");
    const signed = await signedPost(`${bob.actorId}/inbox`, JSON.stringify(activity));
    const tampered = JSON.stringify({
      ...activity,
      object: { ...activity.object, content: "tampered" },
    });
    const response = await fetch(
      new Request(signed.url, { method: "POST", headers: signed.headers, body: tampered }),
    );
    expect(response.status).toBe(401);
    // The digest it signed is not the body's: the answer says which check failed
    // (docs/server-guide.md#what-the-inbox-refused).
    expect(await response.json()).toEqual({ detail: "the Digest header does not match the body" });
    const events = await readEvents(b.services, bob.accountId, "incoming");
    expect(events.some((e) => e.data.raw.id === activity.id)).toBe(false);
  });

  it("refuses an unsigned request with 401", async () => {
    const activity = note("unsigned");
    const response = await fetch(`${bob.actorId}/inbox`, {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
      body: JSON.stringify(activity),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: "the request is not signed" });
  });

  it("refuses an activity whose actor is not the signer with 401", async () => {
    const activity = note("forged", "https://elsewhere.example/users/mallory");
    const response = await fetch(
      await signedPost(`${bob.actorId}/inbox`, JSON.stringify(activity)),
    );
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toMatch(
      /not by the activity's actor/,
    );
    const events = await readEvents(b.services, bob.accountId, "incoming");
    expect(events.some((e) => e.data.raw.id === activity.id)).toBe(false);
  });

  it("refuses an RFC 9421 signature that leaves the body uncovered", async () => {
    const signer = (await loadSigner(a.services.db, alice.actorId))!;
    const activity = note("uncovered");
    // Signed as if there were no body, so the signature covers no Content-Digest; then a body.
    const bodiless = new Request(`${bob.actorId}/inbox`, {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
    });
    const signed = await signRequest(bodiless, signer.privateKey, signer.keyId, {
      spec: "rfc9421",
      body: null,
    });
    expect(signed.headers.get("Signature-Input")).not.toContain("content-digest");
    const response = await fetch(
      new Request(signed.url, {
        method: "POST",
        headers: signed.headers,
        body: JSON.stringify(activity),
      }),
    );
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/Content-Digest/);
  });

  it("answers with the security headers, at the plain path and at a percent-encoded spelling", async () => {
    for (const inbox of [`${bob.actorId}/inbox`, `${bob.actorId}/%69nbox`]) {
      const activity = note(`spelled ${inbox}`);
      const response = await fetch(await signedPost(inbox, JSON.stringify(activity)));
      expect(response.status, inbox).toBe(202);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      await waitForEvent(
        b.services,
        bob.accountId,
        "incoming",
        (e) => e.data.raw.id === activity.id,
      );
    }
  });

  it("refuses a body over 1 MiB sent without a length with 413, and ends the connection", async () => {
    const answer = await new Promise<{ status?: number; connection?: string; body: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          `${bob.actorId}/inbox`,
          { method: "POST", headers: { "Content-Type": "application/activity+json" } },
          (res) => {
            let body = "";
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () =>
              resolve({ status: res.statusCode, connection: res.headers.connection, body }),
            );
          },
        );
        req.on("error", reject);
        const chunk = "x".repeat(64 * 1024);
        for (let i = 0; i < 17; i++) req.write(chunk); // chunked: no Content-Length
        req.end();
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    expect(JSON.parse(answer.body)).toEqual({ detail: "activity larger than 1 MiB" });
  });

  it("refuses a body over 1 MiB with 413 before reading it", async () => {
    const huge = JSON.stringify({ ...note("huge"), padding: "x".repeat(1024 * 1024) });
    const response = await fetch(await signedPost(`${bob.actorId}/inbox`, huge));
    expect(response.status).toBe(413);
  });
});
