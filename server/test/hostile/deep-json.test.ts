// Issue 16, finding 4: JSON nested 100,000 levels deep made lookup and a correctly signed inbox
// POST answer 500, and send_message fail silently. Rule (docs/server-guide.md#untrusted-input): JSON
// nested deeper than 256 levels is refused with a clear 4xx (inbox 400, /fe 422) or, for a
// looked-up document, `200 {"raw": null, "error": "…nested too deeply…"}`; never a 500.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccount, addActor, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { deepJson, startRemoteActor, type RemoteActor } from "./remote-actor.ts";

const AS = "https://www.w3.org/ns/activitystreams";
const DEEP = 100_000;

let server: TestServer;
let remote: RemoteActor;
let token: string;
let actor: string;

beforeAll(async () => {
  [server, remote] = await Promise.all([startTestServer(), startRemoteActor()]);
  await addAccount(server, "diver");
  token = await signIn(server, "diver");
  actor = (await addActor(server, token)).id;
});
afterAll(() => Promise.all([server?.close(), remote?.close()]));

/** A Create whose Note carries `nested` (JSON text) as an extension property. */
function createWith(nested: string, to: string): string {
  const id = `${remote.actorId}/activities/${randomUUID()}`;
  const head = JSON.stringify({ "@context": AS, id, type: "Create", actor: remote.actorId, to });
  return `${head.slice(0, -1)},"object":{"type":"Note","content":"deep","nested":${nested}}}`;
}

describe("JSON nested deeper than 256 levels", () => {
  it("a looked-up document answers 200 {raw: null, error: …nested too deeply…}", async () => {
    remote.serve(
      "/deep",
      `{"@context":"${AS}","id":"${remote.base}/deep","type":"Note","nested":${deepJson(DEEP)}}`,
    );
    const response = await fe(server, token, "/actor/lookup", {
      body: { actorId: actor, uri: `${remote.base}/deep` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      raw: null,
      error: expect.stringMatching(/nested too deeply/),
      kind: "not-json",
      status: 200,
      url: expect.any(String),
      exchange: {
        requests: [expect.objectContaining({ answer: expect.objectContaining({ status: 200 }) })],
      },
    });
  });

  it.each([DEEP, 300])(
    "a correctly signed inbox POST nested %i levels answers 400",
    async (depth) => {
      const request = await remote.signedPost(`${actor}/inbox`, createWith(deepJson(depth), actor));
      const response = await fetch(request);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/nested|deep/i);
    },
  );

  it("a correctly signed inbox POST nested 200 levels is accepted", async () => {
    const request = await remote.signedPost(`${actor}/inbox`, createWith(deepJson(200), actor));
    expect((await fetch(request)).status).toBe(202);
  });

  it.each([
    ["/signin", (nested: string) => `{"name":"diver","password":"x","extra":${nested}}`],
    ["/actor/lookup", (nested: string) => `{"actorId":"${actor}","uri":"x","extra":${nested}}`],
    [
      "/actor/trigger/send_message",
      (nested: string) =>
        `{"actor":"${actor}","data":{"type":"Create","actor":"${actor}","to":["${remote.actorId}"],"object":${nested}}}`,
    ],
  ])("a body to /fe%s nested too deeply answers 422 and runs nothing", async (path, body) => {
    const response = await fe(server, token, path, { body: body(deepJson(DEEP)) });
    expect(response.status).toBe(422);
    const detail = ((await response.json()) as { detail: { loc: unknown[]; msg: string }[] })
      .detail;
    expect(detail[0]!.loc[0]).toBe("body");
    expect(detail.map((d) => d.msg).join(" ")).toMatch(/nested|deep/i);
    expect(remote.requests.filter((r) => r.method === "POST")).toEqual([]);
  });
});
