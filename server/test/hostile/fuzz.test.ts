// Property-based fuzzing of every /fe route and the inbox (docs/server-guide.md#untrusted-input):
// whatever arrives, the answer is never a 5xx and the server keeps answering. Fixed seed and
// bounded runs, so a failure repeats exactly; fast-check prints the shrunk request that broke. What
// is sent, and why none of it leaves loopback: fuzz-arbitraries.ts.

import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccount, addActor, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import {
  activity,
  authorization,
  body,
  contentType,
  fill,
  method,
  naturalMethod,
  route,
  signatureHeader,
} from "./fuzz-arbitraries.ts";
import { startRemoteActor, type RemoteActor } from "./remote-actor.ts";

const SEED = 16;

let server: TestServer;
let remote: RemoteActor;
let token: string;
let healthToken: string;
let ids: Parameters<typeof fill>[1];

beforeAll(async () => {
  [server, remote] = await Promise.all([startTestServer(), startRemoteActor()]);
  await addAccount(server, "fuzzer");
  await addAccount(server, "health");
  token = await signIn(server, "fuzzer");
  healthToken = await signIn(server, "health");
  const actor = (await addActor(server, token)).id;
  ids = { actor, remote: remote.actorId, fresh: () => `${remote.actorId}/fuzz/${randomUUID()}` };
});
afterAll(() => Promise.all([server?.close(), remote?.close()]));

/** Fetches, reads the status and drops the body (event streams never end by themselves). */
async function statusOf(url: string | Request, init?: RequestInit): Promise<number> {
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
        method,
        authorization,
        contentType,
        body,
        async (path, chosen, auth, type, text) => {
          const verb = chosen === "natural" ? naturalMethod(path) : chosen;
          const headers: Record<string, string> = {};
          if (auth) headers.Authorization = auth.replace("TOKEN", token);
          if (type) headers["Content-Type"] = type;
          const sent = fill(text, ids);
          const status = await statusOf(`${server.url}/fe${path}`, {
            method: verb,
            headers,
            body: verb === "GET" ? undefined : sent,
          });
          expect(status, `${verb} /fe${path} ${sent}`).toBeLessThan(500);
        },
      ),
      { seed: SEED, numRuns: 600 },
    );
    expect((await fe(server, healthToken, "/account/info")).status).toBe(200);
  });

  it("the inbox, unsigned, badly signed and correctly signed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/inbox", "ACTOR/inbox", "/actor/nobody/inbox"),
        fc.oneof(activity, body),
        fc.boolean(),
        signatureHeader,
        async (where, text, signed, signature) => {
          const url = where.startsWith("ACTOR") ? `${ids.actor}/inbox` : `${server.url}${where}`;
          const sent = fill(text, ids);
          const headers: Record<string, string> = { "Content-Type": "application/activity+json" };
          if (signature !== undefined) headers.Signature = signature;
          const request = signed
            ? await remote.signedPost(url, sent)
            : new Request(url, { method: "POST", headers, body: sent });
          const status = await statusOf(request);
          expect(status, `POST ${where} signed=${signed} ${sent}`).toBeLessThan(500);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
    expect((await fe(server, healthToken, "/account/info")).status).toBe(200);
  });
});
