// Issue 28 item 1 (docs/server-guide.md#what-the-inbox-refused): every 4xx the inbox answers is
// recorded with its reason in words, attributed to the account it was addressed to, and read back
// with GET /fe/account/refusals; nothing refused reaches a stream.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccount, addActor, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { startRemoteActor, type RemoteActor } from "./remote-actor.ts";
import { watchStream, type StreamWatch } from "./streams.ts";

let server: TestServer;
let remote: RemoteActor;
let admin: string;
let plain: string;
let actor: string;
let incoming: StreamWatch;

beforeAll(async () => {
  [server, remote] = await Promise.all([
    startTestServer({ trustProxy: true }),
    startRemoteActor({ name: "localhost" }),
  ]);
  await addAccount(server, "ada", undefined, { admin: true });
  await addAccount(server, "pim", undefined, {
    admin: false,
    permissions: [new URL(server.url).host],
  });
  [admin, plain] = await Promise.all([signIn(server, "ada"), signIn(server, "pim")]);
  actor = (await addActor(server, plain)).id;
  incoming = await watchStream(server.url, plain, "incoming");
});
afterAll(async () => {
  incoming?.close();
  await Promise.all([server?.close(), remote?.close()]);
});

const remoteHost = () => new URL(remote.base).host;

function create(overrides: Record<string, unknown> = {}) {
  const activity = {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${remote.actorId}/activities/${randomUUID()}`,
    type: "Create",
    actor: remote.actorId,
    to: [actor],
    object: { type: "Note", content: "refused?" },
    ...overrides,
  };
  return { id: activity.id, body: JSON.stringify(activity) };
}

/** Sends the request as it is; the answer's status. */
async function send(request: Request, body: string, extra: Record<string, string> = {}) {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  const response = await fetch(request.url, { method: "POST", headers, body });
  await response.body?.cancel();
  return response.status;
}

/** The refusal of activity `id` as `token`'s account reads it, once recorded. */
async function refusalOf(token: string, id: string) {
  let found: Record<string, unknown> | undefined;
  await expect
    .poll(async () => {
      const page = await (await fe(server, token, "/account/refusals?limit=500")).json();
      found = page.refusals.find((r: { activityId: string }) => r.activityId === id);
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

describe("the refusal record", () => {
  it("records a bad signature with its reason in words, host, activity and client", async () => {
    const { id, body } = create();
    const signed = await remote.signedPost(`${actor}/inbox`, body);
    const signature = signed.headers.get("Signature")!;
    // One character of the signature changed: still base64, no longer the key's signature.
    const tampered = signature.replace(/signature="(.)/, (_, c: string) =>
      c === "A" ? 'signature="B' : 'signature="A',
    );
    const status = await send(signed, body, {
      Signature: tampered,
      "X-Forwarded-For": "198.51.100.7",
    });
    expect(status).toBe(401);
    const refusal = await refusalOf(plain, id);
    expect(refusal).toMatchObject({
      reason: "bad_signature",
      status: 401,
      keyId: `${remote.actorId}#main-key`,
      keyHost: remoteHost(),
      actorHost: remoteHost(),
      activityType: "Create",
      inbox: `${actor}/inbox`,
      client: "198.51.100.7",
      attributed: true,
      body,
    });
    expect(refusal.detail).toMatch(/does not verify with its key/);
  });

  it("records a digest that does not match the body as digest_mismatch", async () => {
    const { id, body } = create();
    const signed = await remote.signedPost(`${actor}/inbox`, body, undefined, {
      Digest: "SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
    });
    expect(await send(signed, body)).toBe(401);
    const refusal = await refusalOf(plain, id);
    expect(refusal).toMatchObject({ reason: "digest_mismatch", status: 401 });
    expect(refusal.detail).toBe("the Digest header does not match the body");
  });

  it("records a Date two hours off as date_skew, with the skew", async () => {
    const { id, body } = create();
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toUTCString();
    const signed = await remote.signedPost(`${actor}/inbox`, body, undefined, {
      Date: twoHoursAgo,
    });
    expect(await send(signed, body)).toBe(401);
    const refusal = await refusalOf(plain, id);
    expect(refusal).toMatchObject({ reason: "date_skew", status: 401 });
    expect(refusal.detail).toMatch(/Date is 2 h 0 min behind our clock/);
  });

  it("records an unsigned request, a key that cannot be fetched and a signer not the actor", async () => {
    const unsigned = create();
    const plainPost = new Request(`${actor}/inbox`, {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
    });
    expect(await send(plainPost, unsigned.body)).toBe(401);
    expect(await refusalOf(plain, unsigned.id)).toMatchObject({
      reason: "unsigned",
      keyId: null,
    });

    // Signed as the remote actor, but its keyId names a document its server does not have.
    const lost = create();
    const signed = await remote.signedPost(`${actor}/inbox`, lost.body);
    const missingKey = signed.headers
      .get("Signature")!
      .replace(`${remote.actorId}#main-key`, `${remote.base}/nobody#main-key`);
    expect(await send(signed, lost.body, { Signature: missingKey })).toBe(401);
    const keyFailure = await refusalOf(plain, lost.id);
    expect(keyFailure).toMatchObject({ reason: "key_fetch_failed", keyHost: remoteHost() });
    expect(keyFailure.detail).toMatch(/could not be fetched: .*answered 404/);

    const forged = create({ actor: `${remote.base}/someone-else` });
    expect(await send(await remote.signedPost(`${actor}/inbox`, forged.body), forged.body)).toBe(
      401,
    );
    expect(await refusalOf(plain, forged.id)).toMatchObject({ reason: "actor_mismatch" });
  });

  it("keeps what no account was addressed by for admins only", async () => {
    const { id, body } = create({ to: ["https://www.w3.org/ns/activitystreams#Public"] });
    const nobody = `${server.url}/actor/nobody-here`;
    expect(await send(await remote.signedPost(`${nobody}/inbox`, body), body)).toBe(404);
    expect(await refusalOf(admin, id)).toMatchObject({
      reason: "unknown_actor",
      status: 404,
      attributed: false,
    });
    const own = await (await fe(server, plain, "/account/refusals?limit=500")).json();
    expect(own.refusals.some((r: { activityId: string }) => r.activityId === id)).toBe(false);
  });

  it("records malformed, too deep and too large bodies", async () => {
    const shared = `${server.url}/inbox`;
    const post = (body: string) =>
      fetch(shared, { method: "POST", body, headers: { "X-Test": "malformed" } });
    expect((await post("{not json")).status).toBe(400);
    expect((await post(`${'{"a":'.repeat(300)}1${"}".repeat(300)}`)).status).toBe(400);
    expect((await post("x".repeat(1024 * 1024 + 10))).status).toBe(413);
    await expect
      .poll(async () => {
        const page = await (await fe(server, admin, "/account/refusals?limit=500")).json();
        const reasons = new Set(page.refusals.map((r: { reason: string }) => r.reason));
        return ["malformed", "too_deep", "too_large"].every((r) => reasons.has(r));
      })
      .toBe(true);
    const page = await (await fe(server, admin, "/account/refusals?reason=too_large")).json();
    expect(page.refusals[0]).toMatchObject({ status: 413, body: null });
    const malformed = await (await fe(server, admin, "/account/refusals?reason=malformed")).json();
    expect(malformed.refusals[0].body).toBe("{not json");
  });

  it("pages newest first by host, reason, before and limit", async () => {
    const all = await (await fe(server, plain, `/account/refusals?host=${remoteHost()}`)).json();
    expect(all.refusals.length).toBeGreaterThanOrEqual(6);
    const ids = all.refusals.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const first = await (await fe(server, plain, "/account/refusals?limit=2")).json();
    expect(first.refusals).toHaveLength(2);
    expect(first.more).toBe(true);
    const next = await (
      await fe(server, plain, `/account/refusals?limit=2&before=${first.refusals[1].id}`)
    ).json();
    expect(next.refusals[0].id).toBeLessThan(first.refusals[1].id);
    const skew = await (await fe(server, plain, "/account/refusals?reason=date_skew")).json();
    expect(skew.refusals.every((r: { reason: string }) => r.reason === "date_skew")).toBe(true);
    const none = await (await fe(server, plain, "/account/refusals?host=elsewhere.example")).json();
    expect(none).toEqual({ refusals: [], more: false });
    const bad = await fe(server, plain, "/account/refusals?reason=sunspots&limit=0");
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail.map((d: { loc: string[] }) => d.loc[1])).toEqual([
      "reason",
      "limit",
    ]);
  });

  it("lets nothing refused reach a stream", async () => {
    const fence = create();
    expect(await send(await remote.signedPost(`${actor}/inbox`, fence.body), fence.body)).toBe(202);
    await incoming.next((e) => e.data.raw.id === fence.id);
    const page = await (await fe(server, plain, "/account/refusals?limit=500")).json();
    const refused = new Set(page.refusals.map((r: { activityId: string }) => r.activityId));
    expect(refused.size).toBeGreaterThan(0);
    expect(incoming.events().filter((e) => refused.has(e.data.raw.id))).toEqual([]);
  });
});
