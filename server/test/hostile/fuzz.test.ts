// Property-based fuzzing of every /fe route and the inbox (server.md §10): whatever arrives,
// the answer is never a 5xx and the server keeps answering. Fixed seed and bounded runs, so a
// failure repeats exactly; fast-check prints the shrunk request that broke.
//
// Nothing here may leave loopback: every URL the generators can produce names 127.0.0.1 or is
// not a URL at all, so no DNS question is asked.

import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccount, addActor, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { startRemoteActor, type RemoteActor } from "./remote-actor.ts";

const SEED = 16;
const AS = "https://www.w3.org/ns/activitystreams";

let server: TestServer;
let remote: RemoteActor;
let token: string;
let healthToken: string;
let actor: string;

beforeAll(async () => {
  [server, remote] = await Promise.all([startTestServer(), startRemoteActor()]);
  await addAccount(server, "fuzzer");
  await addAccount(server, "health");
  token = await signIn(server, "fuzzer");
  healthToken = await signIn(server, "health");
  actor = (await addActor(server, token)).id;
});
afterAll(() => Promise.all([server?.close(), remote?.close()]));

/** Strings that are never a resolvable name: no dots, colons or at signs. */
const word = fc.string({ maxLength: 12 }).filter((s) => !/[.:@]/.test(s));
const loopbackUrl = fc
  .tuple(fc.constantFrom("http", "https", "ftp"), fc.integer({ min: 1, max: 65535 }), word)
  .map(([scheme, port, path]) => `${scheme}://127.0.0.1:${port}/${encodeURIComponent(path)}`);
const safeString = fc.oneof(word, loopbackUrl, fc.constantFrom("", " ", "\u0000", "acct:"));
/** JSON values whose strings are all safe, up to a few levels deep. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    safeString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(word, fc.constantFrom("actor", "to", "type", "id", "data")),
      tie("value"),
      {
        maxKeys: 5,
      },
    ),
  ),
})).value;

const body = fc.oneof(
  { arbitrary: json.map((v) => JSON.stringify(v)), weight: 2 },
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "{", "[]", "null", '{"a":1,"a":2}', "\uFEFF{}", "1e999"),
  fc
    .record(
      { actor: fc.oneof(fc.constant("ACTOR"), safeString), data: json },
      {
        requiredKeys: [],
      },
    )
    .map((v) => JSON.stringify(v).replaceAll('"ACTOR"', JSON.stringify(actor ?? ""))),
  fc
    .record({ actorId: fc.constant("ACTOR"), uri: safeString })
    .map((v) => JSON.stringify(v).replaceAll('"ACTOR"', JSON.stringify(actor ?? ""))),
);
const segment = fc.oneof(word, fc.constantFrom("incoming", "outgoing", "error", "1", "-1", "%00"));
const route = fc.oneof(
  fc.constantFrom("/signin", "/signout", "/account/info", "/account/create", "/actor/lookup"),
  fc.constantFrom("/account/hosts", "/actor/lookup?timeout=0", "/actor/lookup?timeout=x"),
  segment.map((s) => `/account/stream/${s}`),
  fc
    .oneof(
      fc.constantFrom("send_message", "update_actor", "delete_actor", "publish_activity"),
      word,
    )
    .map((m) => `/actor/trigger/${encodeURIComponent(m)}`),
  segment.map((s) => `/actor/triggers/${encodeURIComponent(s)}`),
  segment.map((s) => `/actor/triggers/${encodeURIComponent(s)}/redeliver`),
  fc
    .tuple(segment, fc.constantFrom("stop", "resume", "retry"))
    .map(([h, a]) => `/account/hosts/${encodeURIComponent(h)}/${a}`),
);
const authorization = fc.oneof(
  { arbitrary: fc.constant("Bearer TOKEN"), weight: 6 },
  fc.constant(undefined),
  fc.constantFrom("Bearer", "Bearer ", "Basic x", "bearer TOKEN", "Bearer TOKEN x"),
  word.map((w) => `Bearer ${w}`),
);
const contentType = fc.constantFrom(
  "application/json",
  "text/plain",
  "application/activity+json",
  undefined,
);

/** The method a route is usually called with. */
function naturalMethod(path: string) {
  return /^\/(account\/(info|stream|hosts$)|actor\/triggers\/[^/]*$)/.test(path) ? "GET" : "POST";
}

/** Fetches, reads the status and drops the body (event streams never end by themselves). */
async function statusOf(url: string, init: RequestInit): Promise<number> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  controller.abort();
  return response.status;
}

describe("fuzzed requests never get a 5xx and the server keeps answering", () => {
  it("every /fe route", async () => {
    await fc.assert(
      fc.asyncProperty(
        route,
        fc.oneof(
          { arbitrary: fc.constant("natural"), weight: 4 },
          fc.constantFrom("GET", "POST", "PUT", "DELETE"),
        ),
        authorization,
        contentType,
        body,
        async (path, chosen, auth, type, text) => {
          const method = chosen !== "natural" ? chosen : naturalMethod(path);
          const headers: Record<string, string> = {};
          if (auth) headers.Authorization = auth.replace("TOKEN", token);
          if (type) headers["Content-Type"] = type;
          const status = await statusOf(`${server.url}/fe${path}`, {
            method,
            headers,
            body: method === "GET" ? undefined : text,
          });
          expect(status, `${method} /fe${path} ${text}`).toBeLessThan(500);
        },
      ),
      { seed: SEED, numRuns: 600 },
    );
    expect((await fe(server, healthToken, "/account/info")).status).toBe(200);
  });

  it("the inbox, unsigned, badly signed and correctly signed", async () => {
    const activity = fc.record(
      {
        "@context": fc.oneof(fc.constant(AS), json),
        id: fc.oneof(fc.constant("ID"), safeString),
        type: fc.oneof(
          fc.constantFrom("Create", "Follow", "Undo", "Accept", "Reject", "Delete", "Update"),
          word,
        ),
        actor: fc.oneof(fc.constant("REMOTE"), safeString),
        object: fc.oneof(fc.constant("ACTOR"), json),
        to: fc.oneof(fc.constant(["ACTOR"]), json),
      },
      { requiredKeys: [] },
    );
    const fill = (text: string) =>
      text
        .replaceAll('"ID"', JSON.stringify(`${remote.actorId}/fuzz/${randomUUID()}`))
        .replaceAll('"REMOTE"', JSON.stringify(remote.actorId))
        .replaceAll('"ACTOR"', JSON.stringify(actor));
    const signature = fc.oneof(
      fc.constant(undefined),
      fc.string({ maxLength: 60 }),
      fc
        .tuple(loopbackUrl, fc.constantFrom("rsa-sha256", "hs2019", "ed25519", ""), word)
        .map(
          ([k, a, s]) =>
            `keyId="${k}",algorithm="${a}",headers="(request-target) date",signature="${s}"`,
        ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/inbox", "ACTOR/inbox", "/actor/nobody/inbox"),
        fc.oneof(
          activity.map((a) => fill(JSON.stringify(a))),
          body,
        ),
        fc.boolean(),
        signature,
        async (where, text, signed, signatureHeader) => {
          const url = where.startsWith("ACTOR") ? `${actor}/inbox` : `${server.url}${where}`;
          let request: Request;
          if (signed) request = await remote.signedPost(url, text);
          else {
            const headers: Record<string, string> = { "Content-Type": "application/activity+json" };
            if (signatureHeader !== undefined) headers.Signature = signatureHeader;
            request = new Request(url, { method: "POST", headers, body: text });
          }
          const response = await fetch(request);
          await response.body?.cancel();
          expect(response.status, `POST ${where} signed=${signed} ${text}`).toBeLessThan(500);
        },
      ),
      { seed: SEED, numRuns: 250 },
    );
    expect((await fe(server, healthToken, "/account/info")).status).toBe(200);
  });
});
