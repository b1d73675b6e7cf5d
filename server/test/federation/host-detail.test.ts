// Issue 28 item 2 (docs/api.md#get-feaccounthostshost): GET /fe/account/hosts/{host}
// tells a host's software, what it sent us (accepted and refused), what we sent it, and every
// attempt with the start of its answer; a trigger's deliveries list their attempts; a host never
// reached is on GET /fe/account/hosts, failing, with the reason in words.

import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addActor, addAccount, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { startRemoteActor, type RemoteActor } from "../hostile/remote-actor.ts";

let server: TestServer;
let remote: RemoteActor;
let token: string;
let actor: string;

// Names the server resolves itself: the remote peer under a name, and a name that resolves to
// nothing (as a DNS failure).
const resolveHost = async (hostname: string) => {
  if (hostname === "nowhere.test") {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  }
  return ["127.0.0.1"];
};

beforeAll(async () => {
  [server, remote] = await Promise.all([
    startTestServer({ resolveHost }),
    startRemoteActor({ name: "peer.test" }),
  ]);
  remote.serve(
    "/.well-known/nodeinfo",
    JSON.stringify({
      links: [
        {
          rel: "http://nodeinfo.diaspora.software/ns/schema/2.1",
          href: `${remote.base}/nodeinfo/2.1`,
        },
      ],
    }),
  );
  remote.serve(
    "/nodeinfo/2.1",
    JSON.stringify({ version: "2.1", software: { name: "testodon", version: "4.2.1" } }),
  );
  await addAccount(server, "hana");
  token = await signIn(server, "hana");
  actor = (await addActor(server, token)).id;
});
afterAll(async () => {
  await Promise.all([server?.close(), remote?.close()]);
});

const host = () => new URL(remote.base).host;

async function send(to: string): Promise<string> {
  const response = await fe(server, token, "/actor/trigger/send_message", {
    body: {
      actor,
      data: {
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${actor}/activities/${randomUUID()}`,
        type: "Create",
        actor,
        to: [to],
        object: { type: "Note", content: "hello" },
      },
    },
  });
  expect(response.status).toBe(202);
  return response.headers.get("Corral-Trigger-Id")!;
}

async function recordWhen(id: string, done: (record: TriggerRecordJson) => boolean) {
  let record: TriggerRecordJson | undefined;
  await expect
    .poll(
      async () => {
        record = await (await fe(server, token, `/actor/triggers/${id}`)).json();
        return done(record!);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return record!;
}
type TriggerRecordJson = {
  deliveries: Array<{
    inbox: string;
    state: string;
    attempts: number;
    attemptLog: Array<{ status: number | null; response: string | null; error: string | null }>;
  }>;
};

describe("one host, both directions", () => {
  it("lists each attempt of a delivery retried three times, with statuses and answer starts", async () => {
    remote.postAnswer = {
      status: 503,
      body: `<html><body>${"Busy. ".repeat(100)}</body></html>`,
      headers: { "Content-Type": "text/html" },
    };
    const id = await send(remote.actorId);
    await recordWhen(id, (r) => r.deliveries[0]?.attempts === 1);
    for (const n of [2, 3]) {
      if (n === 3) remote.postAnswer = { status: 202 };
      expect(
        (await fe(server, token, `/actor/triggers/${id}/redeliver`, { body: {} })).status,
      ).toBe(202);
      await recordWhen(id, (r) => r.deliveries[0]?.attempts === n);
    }
    const record = await recordWhen(id, (r) => r.deliveries[0]?.state === "delivered");
    const log = record.deliveries[0]!.attemptLog;
    expect(log.map((a) => a.status)).toEqual([503, 503, 202]);
    expect(log[0]!.response).toMatch(/^<html><body>Busy\. /);
    expect(Buffer.byteLength(log[0]!.response!)).toBe(300);
    expect(log[0]!.error).toMatch(/answered 503/);
    expect(log[2]).toMatchObject({ error: null, response: null });

    const detail = await (await fe(server, token, `/account/hosts/${host()}`)).json();
    expect(detail.attempts.map((a: { status: number }) => a.status)).toEqual([202, 503, 503]);
    expect(detail.attempts[0]).toMatchObject({ inbox: `${remote.base}/inbox` });
    expect(detail.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(detail.software).toEqual({ name: "testodon", version: "4.2.1" });
    expect(detail.outbound).toMatchObject({ host: host(), state: "ok" });
    expect(detail).toMatchObject({ host: host(), state: "ok", hold: null });
  });

  it("counts what the host sent: accepted and refused, by reason", async () => {
    const note = () =>
      JSON.stringify({
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${remote.actorId}/activities/${randomUUID()}`,
        type: "Create",
        actor: remote.actorId,
        to: [actor],
        object: { type: "Note", content: "in" },
      });
    const good = note();
    const signed = await remote.signedPost(`${actor}/inbox`, good);
    expect(
      (await fetch(signed.url, { method: "POST", headers: signed.headers, body: good })).status,
    ).toBe(202);
    const bad = note();
    const skewed = await remote.signedPost(`${actor}/inbox`, bad, undefined, {
      Date: new Date(Date.now() - 2 * 3600_000).toUTCString(),
    });
    expect(
      (await fetch(skewed.url, { method: "POST", headers: skewed.headers, body: bad })).status,
    ).toBe(401);
    let inbound: Record<string, unknown> = {};
    await expect
      .poll(async () => {
        inbound = (await (await fe(server, token, `/account/hosts/${host()}`)).json()).inbound;
        return inbound.accepted7d === 1 && inbound.refused7d === 1;
      })
      .toBe(true);
    expect(inbound).toMatchObject({ refusedByReason: { date_skew: 1 } });
    expect(typeof inbound.lastAcceptedAt).toBe("string");
    expect(typeof inbound.lastRefusedAt).toBe("string");
  });

  it("shows a host never reached as failing, with the reason in words", async () => {
    const closed = await closedPort();
    await send(`http://127.0.0.1:${closed}/actor`);
    await send("http://nowhere.test/actor");
    let hosts: Array<{ host: string; state: string; lastError: string | null }> = [];
    await expect
      .poll(async () => {
        hosts = await (await fe(server, token, "/account/hosts")).json();
        return hosts.filter((h) => h.state === "failing").length;
      })
      .toBe(2);
    const refused = hosts.find((h) => h.host === `127.0.0.1:${closed}`)!;
    expect(refused.lastError).toMatch(/could not be reached: ECONNREFUSED/);
    const unresolved = hosts.find((h) => h.host === "nowhere.test")!;
    expect(unresolved.lastError).toMatch(/could not be reached: ENOTFOUND/);
  });

  it("reads a host whose NodeInfo index links nothing as software unknown", async () => {
    const bare = await startRemoteActor();
    try {
      bare.serve("/.well-known/nodeinfo", JSON.stringify({ links: [] }));
      const id = await send(bare.actorId);
      await recordWhen(id, (r) => r.deliveries[0]?.state === "delivered");
      const response = await fe(server, token, `/account/hosts/${new URL(bare.base).host}`);
      expect(response.status).toBe(200);
      expect((await response.json()).software).toBeNull();
    } finally {
      await bare.close();
    }
  });

  it("answers 404 for a host never heard of", async () => {
    const response = await fe(server, token, "/account/hosts/never.test");
    expect(response.status).toBe(404);
  });
});

describe("checking a host", () => {
  const check = async (name: string, on = server, as = token) => {
    const started = Date.now();
    const response = await fe(on, as, `/account/hosts/${name}/check`, { method: "POST" });
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(30_000);
    return (await response.json()) as {
      steps: Array<{ step: string; ok: boolean; ms: number; detail: string }>;
      verdict: string;
    };
  };

  it("passes every step on a healthy host", async () => {
    // The remote actor sent us an activity (above): it is an actor of that host we know.
    remote.serve(
      "/.well-known/webfinger",
      JSON.stringify({
        subject: "acct:remote@peer.test",
        links: [{ rel: "self", type: "application/activity+json", href: remote.actorId }],
      }),
    );
    remote.answerGet("/inbox", { status: 405, body: "" });
    const result = await check(host());
    expect(result.steps.map((s) => [s.step, s.ok])).toEqual([
      ["resolve", true],
      ["connect", true],
      ["nodeinfo", true],
      ["actor", true],
      ["webfinger", true],
      ["inbox", true],
    ]);
    expect(result.steps[2]!.detail).toBe("testodon 4.2.1");
    expect(result.verdict).toMatch(/passed every step/);
  });

  it("passes every step on a peer whose WebFinger takes only acct: and whose inbox answers a GET 404", async () => {
    const peer = await startRemoteActor({ webfinger: true });
    try {
      peer.serve("/.well-known/nodeinfo", nodeInfoIndex(peer.base));
      peer.serve("/nodeinfo/2.1", JSON.stringify({ software: { name: "acctodon" } }));
      await sendUs(peer);
      const result = await check(new URL(peer.base).host);
      expect(result.steps.map((s) => [s.step, s.ok])).toEqual([
        ["resolve", true],
        ["connect", true],
        ["nodeinfo", true],
        ["actor", true],
        ["webfinger", true],
        ["inbox", true],
      ]);
      const acct = `acct:remote@${new URL(peer.base).host}`;
      expect(result.steps[4]!.detail).toBe(`${acct}: self ${peer.actorId}`);
      expect(
        peer.requests.some(
          (r) => r.url === `/.well-known/webfinger?resource=${encodeURIComponent(acct)}`,
        ),
      ).toBe(true);
      expect(result.steps[5]!.detail).toMatch(/answered 404 to a GET, which is fine/);
      expect(result.verdict).toMatch(/passed every step/);
    } finally {
      await peer.close();
    }
  });

  it("passes every step on a second Corral, whose inbox answers a GET 405 with Allow: POST", async () => {
    const second = await startTestServer();
    try {
      await addAccount(second, "okpeer");
      const peerToken = await signIn(second, "okpeer");
      const okpeer = (await addActor(second, peerToken, "okpeer")).id;
      const inboxGet = await fetch(`${okpeer}/inbox`);
      expect(inboxGet.status).toBe(405);
      expect(inboxGet.headers.get("Allow")).toBe("POST");
      expect((await fetch(`${second.url}/inbox`)).status).toBe(405);
      // okpeer writes to us: an actor of that host we know.
      const sent = await fe(second, peerToken, "/actor/trigger/send_message", {
        body: {
          actor: okpeer,
          data: {
            "@context": "https://www.w3.org/ns/activitystreams",
            id: `${okpeer}/activities/${randomUUID()}`,
            type: "Create",
            actor: okpeer,
            to: [actor],
            object: { type: "Note", content: "hi" },
          },
        },
      });
      expect(sent.status).toBe(202);
      const name = new URL(second.url).host;
      await expect
        .poll(
          () =>
            server.services.db.get(`SELECT 1 AS seen FROM inbox_seen WHERE sender_id = ?`, [
              okpeer,
            ]),
          { timeout: 15_000 },
        )
        .toBeTruthy();
      const result = await check(name);
      expect(result.steps.map((s) => [s.step, s.ok, s.detail])).toEqual([
        ["resolve", true, expect.any(String)],
        ["connect", true, expect.any(String)],
        ["nodeinfo", true, expect.stringMatching(/^corral/)],
        ["actor", true, expect.stringContaining(`inbox ${okpeer}/inbox`)],
        ["webfinger", true, `acct:okpeer@${name}: self ${okpeer}`],
        ["inbox", true, expect.stringContaining("answered 405 to a GET")],
      ]);
      expect(result.verdict).toBe(
        `${name} passed every step: resolving its name, connecting to it, reading its NodeInfo, the signed GET of its actor, WebFinger, the GET of its inbox.`,
      );
    } finally {
      await second.close();
    }
  });

  it("says that this server's own host is this server, even where private addresses are refused", async () => {
    const guarded = await startTestServer({ allowPrivateAddresses: false });
    try {
      await addAccount(guarded, "quick");
      const own = new URL(guarded.url).host;
      const result = await check(own, guarded, await signIn(guarded, "quick"));
      expect(result.steps).toEqual([
        expect.objectContaining({
          step: "resolve",
          ok: true,
          detail: expect.stringMatching(/is this server/),
        }),
      ]);
      expect(result.verdict).toMatch(
        new RegExp(`^${own} is this server \\(${guarded.url} is one of its base URLs\\)`),
      );
    } finally {
      await guarded.close();
    }
  });

  it("names the inbox step and its 403 when the inbox answers 403 with an HTML page", async () => {
    remote.answerGet("/inbox", {
      status: 403,
      body: "<html><body><h1>Forbidden</h1></body></html>",
      headers: { "Content-Type": "text/html" },
    });
    const result = await check(host());
    expect(result.steps.at(-1)).toMatchObject({ step: "inbox", ok: false });
    expect(result.verdict).toMatch(/^The GET of its inbox failed: .*answered 403 Forbidden/);
  });

  it("stops at resolving on a private address without --allow-private-addresses, connecting nowhere", async () => {
    const guarded = await startTestServer({ allowPrivateAddresses: false });
    const sink = await startRemoteActor();
    try {
      await addAccount(guarded, "gus");
      const gus = await signIn(guarded, "gus");
      const result = await check(`127.0.0.1:${sink.port}`, guarded, gus);
      expect(result.steps).toHaveLength(1);
      expect(result.steps[0]).toMatchObject({ step: "resolve", ok: false });
      expect(result.verdict).toMatch(/^Resolving its name failed: refused private address/);
      expect(sink.requests).toEqual([]);
    } finally {
      await Promise.all([guarded.close(), sink.close()]);
    }
  });

  it("names the connection when nothing listens", async () => {
    const closed = await closedPort();
    const result = await check(`127.0.0.1:${closed}`);
    expect(result.steps.map((s) => s.ok)).toEqual([true, false]);
    expect(result.verdict).toMatch(/^Connecting to it failed: .*ECONNREFUSED/);
  });
});

describe("checking a host, streamed (Accept: application/x-ndjson)", () => {
  it("sends each step as it completes and names the one running, the whole answer last", async () => {
    // A host that accepts the connection and then says nothing: the connect step waits on it.
    const sockets = new Set<import("node:net").Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const response = await fe(server, token, `/account/hosts/127.0.0.1:${port}/check`, {
        method: "POST",
        headers: { Accept: "application/x-ndjson" },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/x-ndjson/);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      const lines: unknown[] = [];
      let pending = "";
      const readUntil = async (seen: (line: unknown) => boolean) => {
        while (!lines.some(seen)) {
          const { done, value } = await reader.read();
          if (done) throw new Error(`the stream ended after ${JSON.stringify(lines)}`);
          pending += decoder.decode(value, { stream: true });
          const parts = pending.split("\n");
          pending = parts.pop()!;
          lines.push(...parts.filter((p) => p !== "").map((p) => JSON.parse(p) as unknown));
        }
      };
      // While the connect step still waits (its TLS handshake is never answered), the resolve
      // step is already there.
      await readUntil((line) => (line as { running?: string }).running === "connect");
      expect(lines).toEqual([
        { running: "resolve" },
        expect.objectContaining({ step: "resolve", ok: true }),
        { running: "connect" },
      ]);
      await expect.poll(() => sockets.size).toBeGreaterThan(0);
      for (const socket of sockets) socket.destroy();
      await readUntil((line) => typeof (line as { verdict?: string }).verdict === "string");
      expect(lines.at(-2)).toMatchObject({ step: "connect", ok: false });
      expect(lines.at(-1)).toMatchObject({
        steps: [{ step: "resolve" }, { step: "connect", ok: false }],
        verdict: expect.stringMatching(/^Connecting to it failed/),
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("answers one JSON document to a client that does not ask for NDJSON", async () => {
    const closed = await closedPort();
    const response = await fe(server, token, `/account/hosts/127.0.0.1:${closed}/check`, {
      method: "POST",
      headers: { Accept: "application/json" },
    });
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(((await response.json()) as { steps: unknown[] }).steps).toHaveLength(2);
  });
});

/** A NodeInfo index linking to /nodeinfo/2.1 on `base`. */
function nodeInfoIndex(base: string): string {
  return JSON.stringify({
    links: [
      { rel: "http://nodeinfo.diaspora.software/ns/schema/2.1", href: `${base}/nodeinfo/2.1` },
    ],
  });
}

/** `peer`'s actor sends ours a Note, signed: an actor of its host we know. */
async function sendUs(peer: RemoteActor) {
  const body = JSON.stringify({
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${peer.actorId}/activities/${randomUUID()}`,
    type: "Create",
    actor: peer.actorId,
    to: [actor],
    object: { type: "Note", content: "hello from a peer" },
  });
  const signed = await peer.signedPost(`${actor}/inbox`, body);
  const answer = await fetch(signed.url, { method: "POST", headers: signed.headers, body });
  expect(answer.status).toBe(202);
}

/** A port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
