import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFeServer, type FeServer } from "../test/fe-server.ts";
import { callFe, setFeBaseUrl } from "./fe-client.ts";
import { resetUserStore, useUserStore } from "./user-store.ts";

let fe: FeServer;

beforeAll(async () => {
  fe = await startFeServer({
    "POST /echo": ({ body }) => ({ status: 200, body: { received: body } }),
    "GET /empty-204": () => ({ status: 204 }),
    "GET /empty-200": () => ({ status: 200 }),
    "POST /conflict": () => ({ status: 409, body: { detail: "Duplicate identifier" } }),
    "GET /html-error": () => ({ status: 502, body: undefined }),
    "POST /with-header": () => ({ status: 202, body: null, headers: { "X-Call-Id": "c-1" } }),
  });
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  fe.calls.length = 0;
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
    expect(await callFe("/html-error")).toEqual({ ok: false, status: 502, data: {} });
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
