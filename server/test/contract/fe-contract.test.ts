// One contract, two servers (issue 26): the account API's requests, sent the same way to Corral and
// to the real cattle_grid 0.5.22, and their answers checked by the same assertions. Where Corral
// deliberately answers otherwise, the test says so with `corralDiffers(…)`, naming the entry of
// docs/cattle-grid-differences.md that gives the reason; everything else must match.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTarget, type Target, type TargetName } from "./targets.ts";

/** The deliberate differences, as docs/cattle-grid-differences.md lists them. */
const DIFFERENCES = {
  foreignBaseUrl: "create refuses a baseUrl that is not the account's",
  lookupReason: "a failed lookup says why",
  triggerValidation: "a malformed trigger body is refused before it runs",
} as const;

function corralDiffers(target: Target, difference: keyof typeof DIFFERENCES): boolean {
  expect(DIFFERENCES[difference]).toBeTruthy();
  return target.name === "corral";
}

describe.each<TargetName>(["corral", "cattle_grid"])("the account API of %s", (name) => {
  let target: Target;
  let token: string;
  let actor: Record<string, unknown>;
  const handle = `contract${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    target = await startTarget(name);
    token = await target.account("contract");
  }, 180_000);
  afterAll(async () => {
    await target?.stop();
  });

  describe("sign-in", () => {
    it("answers a token for the right password", async () => {
      const answer = await call(target, null, "/signin", {
        body: { name: "contract", password: "contract-password" },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ token: expect.any(String) });
    });

    it("answers 401 with a detail for a wrong password", async () => {
      const answer = await call(target, null, "/signin", {
        body: { name: "contract", password: "wrong" },
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: expect.any(String) });
    });

    it("answers 422 in FastAPI's shape for a body without a name", async () => {
      const answer = await call(target, null, "/signin", { body: { password: "x" } });
      expect(answer.status).toBe(422);
      const detail = (answer.body as { detail: { loc: unknown[] }[] }).detail;
      expect(detail).toEqual(
        expect.arrayContaining([expect.objectContaining({ loc: ["body", "name"] })]),
      );
    });
  });

  describe("info", () => {
    it("answers 401 without a token", async () => {
      const answer = await call(target, null, "/account/info");
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: expect.any(String) });
    });

    it("names the account, its base URLs, the backend, the protocol and the methods", async () => {
      const answer = await call(target, token, "/account/info");
      expect(answer.status).toBe(200);
      const info = answer.body as Record<string, unknown>;
      expect(info).toMatchObject({
        accountName: "contract",
        actors: expect.any(Array),
        baseUrls: [target.origin],
        backend: { name: expect.any(String), version: expect.any(String) },
        protocol: { name: "CattleDrive", version: expect.any(String) },
      });
      const methods = info.methodInformation as { routing_key: string }[];
      for (const method of methods) {
        expect(method).toMatchObject({
          routing_key: expect.any(String),
          module: expect.any(String),
          replies: expect.any(Boolean),
        });
      }
      expect(methods.map((m) => m.routing_key)).toEqual(
        expect.arrayContaining(["send_message", "update_actor", "delete_actor"]),
      );
    });
  });

  describe("create", () => {
    it("answers 201 and the new actor's document", async () => {
      const answer = await call(target, token, "/account/create", {
        body: { baseUrl: target.origin, handle },
      });
      expect(answer.status).toBe(201);
      actor = answer.body as Record<string, unknown>;
      expect(actor).toMatchObject({
        id: expect.stringMatching(`^${target.origin}/`),
        inbox: expect.stringMatching(`^${target.origin}/`),
        publicKey: expect.objectContaining({ publicKeyPem: expect.any(String) }),
      });
      const listed = async () =>
        (
          (await call(target, token, "/account/info")).body as { actors: { id: string }[] }
        ).actors.map((a) => a.id);
      // Corral lists the actor once it has answered; cattle_grid once its commit, which follows
      // its answer, lands (docs/cattle-grid-differences.md#writes-answered-before-they-are-committed).
      if (target.name === "corral") expect(await listed()).toContain(actor.id);
      else await expect.poll(listed, { timeout: 15_000 }).toContain(actor.id);
    });

    it("answers 409 Duplicate identifier for a taken handle", async () => {
      const answer = await call(target, token, "/account/create", {
        body: { baseUrl: target.origin, handle },
      });
      expect(answer).toMatchObject({ status: 409, body: { detail: "Duplicate identifier" } });
    });

    it("a baseUrl that is not the account's", async () => {
      const answer = await call(target, token, "/account/create", {
        body: { baseUrl: "http://elsewhere.invalid", handle: `${handle}x` },
      });
      if (corralDiffers(target, "foreignBaseUrl")) {
        expect([400, 403]).toContain(answer.status);
        expect(answer.body).toEqual({ detail: expect.any(String) });
      } else {
        expect(answer.status).toBe(201);
      }
    });
  });

  describe("lookup", () => {
    it("finds the account's own actor", async () => {
      // cattle_grid answers {} when its lookup misses its 1 s deadline (seen under load on
      // these 2-core machines): a busy machine gets three tries, a broken lookup none more.
      let answer = { status: 0, type: "", body: {} as unknown };
      for (let attempt = 0; attempt < 3; attempt++) {
        answer = await call(target, token, "/actor/lookup", {
          body: { actorId: actor.id, uri: actor.id },
        });
        if ((answer.body as { raw?: unknown }).raw) break;
      }
      expect(answer.status).toBe(200);
      expect((answer.body as { raw: { id: string } }).raw.id).toBe(actor.id);
    });

    it("answers 200 for a host where nothing listens", async () => {
      const answer = await call(target, token, "/actor/lookup", {
        body: { actorId: actor.id, uri: "http://127.0.0.1:9/nothing" },
      });
      expect(answer.status).toBe(200);
      if (corralDiffers(target, "lookupReason")) {
        expect(answer.body).toMatchObject({
          raw: null,
          error: expect.stringContaining("127.0.0.1:9"),
        });
      } else {
        expect(answer.body).toEqual({});
      }
    });

    it("answers 400 for an actor that is not the account's", async () => {
      const answer = await call(target, token, "/actor/lookup", {
        body: { actorId: `${target.origin}/actor/not-mine`, uri: actor.id },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: expect.any(String) });
    });
  });

  describe("trigger", () => {
    it("answers 202 null for a method it runs", async () => {
      const answer = await call(target, token, "/actor/trigger/update_actor", {
        body: { actor: actor.id, profile: { summary: "contract" } },
      });
      expect(answer).toMatchObject({ status: 202, body: null });
    });

    it("answers 202 null for a method it does not know", async () => {
      const answer = await call(target, token, "/actor/trigger/no_such_method", {
        body: { actor: actor.id },
      });
      expect(answer).toMatchObject({ status: 202, body: null });
    });

    it("answers 400 for an actor that is not the account's", async () => {
      const answer = await call(target, token, "/actor/trigger/send_message", {
        body: { actor: `${target.origin}/actor/not-mine`, data: {} },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: expect.any(String) });
    });

    it("a send_message whose data is not an object", async () => {
      const answer = await call(target, token, "/actor/trigger/send_message", {
        body: { actor: actor.id, data: "not an object" },
      });
      if (corralDiffers(target, "triggerValidation")) {
        expect(answer.status).toBe(422);
      } else {
        expect(answer).toMatchObject({ status: 202, body: null });
      }
    });
  });

  describe("streams", () => {
    for (const stream of ["incoming", "outgoing", "error", "combined"]) {
      it(`opens the ${stream} stream as text/event-stream`, async () => {
        const controller = new AbortController();
        const response = await fetch(`${target.origin}/fe/account/stream/${stream}`, {
          headers: { Authorization: `Bearer ${token}` },
          signal: controller.signal,
        });
        controller.abort();
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
      });
    }

    it("answers 422 for a stream that does not exist", async () => {
      const answer = await call(target, token, "/account/stream/nonsense");
      expect(answer.status).toBe(422);
    });

    it("answers 401 without a token", async () => {
      const answer = await call(target, null, "/account/stream/incoming");
      expect(answer.status).toBe(401);
    });
  });

  describe("history", () => {
    it("answers its events, newest first", async () => {
      const answer = await call(target, token, "/account/history");
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ events: expect.any(Array) });
    });
  });

  it("answers an unknown /fe path with FastAPI's JSON 404", async () => {
    const answer = await call(target, token, "/no/such/route");
    expect(answer).toMatchObject({ status: 404, body: { detail: "Not Found" } });
  });
});
