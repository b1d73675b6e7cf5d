import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFeServer, type FeServer } from "../test/fe-server.ts";
import { callFe, setFeBaseUrl } from "./fe-client.ts";
import { reachability } from "./server-reachability.ts";
import { resetUserStore, useUserStore } from "./user-store.ts";

let fe: FeServer;

beforeAll(async () => {
  fe = await startFeServer({
    "POST /echo": ({ body }) => ({ status: 200, body: { received: body } }),
    "GET /empty-204": () => ({ status: 204 }),
    "GET /empty-200": () => ({ status: 200 }),
    "POST /conflict": () => ({ status: 409, body: { detail: "Duplicate identifier" } }),
    "GET /html-error": () => ({ status: 500, body: undefined }),
    "GET /gateway": () => ({
      status: 502,
      body: { detail: "Upstream http://cg.internal is unreachable: connect ECONNREFUSED" },
    }),
    "GET /busy": () => ({ status: 503, body: undefined, headers: { "Retry-After": "7" } }),
    "GET /fine": () => ({ status: 200, body: { fine: true } }),
    "POST /with-header": () => ({ status: 202, body: null, headers: { "X-Call-Id": "c-1" } }),
  });
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  fe.calls.length = 0;
  reachability.setState({ away: null });
});

describe("fe-client", () => {
  it("sends the body as JSON and reads the JSON answer", async () => {
    const result = await callFe<{ received: unknown }>("/echo", { body: { a: [1, "b"] } });

    expect(result).toEqual({ ok: true, status: 200, data: { received: { a: [1, "b"] } } });
    expect(fe.calls[0]).toMatchObject({ method: "POST", contentType: "application/json" });
  });

  it("sends no Authorization header while signed out", async () => {
    await callFe("/echo", { body: {} });

    expect(fe.calls[0].authorization).toBeUndefined();
  });

  it("sends Authorization: Bearer with the token once one is set", async () => {
    useUserStore.getState().setToken("abc");

    await callFe("/echo", { body: {} });

    expect(fe.calls[0].authorization).toBe("Bearer abc");
  });

  it("never sends the bearer header on an anonymous call such as sign-in", async () => {
    useUserStore.getState().setToken("abc");

    await callFe("/echo", { body: {}, anonymous: true });

    expect(fe.calls[0].authorization).toBeUndefined();
  });

  it("reads a 204 answer as an empty object", async () => {
    expect(await callFe("/empty-204")).toEqual({ ok: true, status: 204, data: {} });
  });

  it("reads an empty 200 answer as an empty object", async () => {
    expect(await callFe("/empty-200")).toEqual({ ok: true, status: 200, data: {} });
  });

  it("returns the parsed error body of a non-OK answer instead of throwing", async () => {
    const result = await callFe("/conflict", { body: {} });

    expect(result).toEqual({ ok: false, status: 409, data: { detail: "Duplicate identifier" } });
  });

  it("returns an empty error body for a non-OK answer without one", async () => {
    expect(await callFe("/html-error")).toEqual({ ok: false, status: 500, data: {} });
  });

  it("reads a gateway's 502 as the server being away, in one sentence with the gateway's reason", async () => {
    expect(await callFe("/gateway")).toEqual({
      ok: false,
      status: 502,
      unreachable: true,
      data: {
        detail:
          "The server is not answering (HTTP 502: Upstream http://cg.internal is unreachable: connect ECONNREFUSED)",
      },
    });
    expect(reachability.getState().away?.reason).toMatch(/^HTTP 502: Upstream/);
  });

  it("keeps a 503's Retry-After and forgets that the server was away once it answers", async () => {
    const busy = await callFe("/busy");
    expect(busy).toMatchObject({ ok: false, status: 503, unreachable: true, retryAfter: 7 });
    expect(reachability.getState().away).not.toBeNull();
    expect(await callFe("/fine")).toMatchObject({ ok: true, data: { fine: true } });
    expect(reachability.getState().away).toBeNull();
  });

  it("returns no answer at all as a value, status 0, instead of throwing", async () => {
    setFeBaseUrl("http://127.0.0.1:9/fe");
    try {
      const result = await callFe("/account/info");
      expect(result).toMatchObject({ ok: false, status: 0, unreachable: true });
      expect((result.data as { detail: string }).detail).toMatch(
        /^The server is not answering \(no answer: .+\)$/,
      );
    } finally {
      setFeBaseUrl(fe.url);
    }
  });

  it("still throws when the caller aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(callFe("/fine", { signal: controller.signal })).rejects.toThrow();
  });

  it("returns the response headers a caller asks for, and only those present", async () => {
    const result = await callFe("/with-header", {
      body: {},
      readHeaders: ["X-Call-Id", "X-Absent"],
    });

    expect(result).toEqual({ ok: true, status: 202, data: null, headers: { "X-Call-Id": "c-1" } });
  });

  it("leaves headers out unless asked", async () => {
    expect(await callFe("/with-header", { body: {} })).not.toHaveProperty("headers");
  });
});
