import { afterEach, describe, expect, it } from "vitest";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";

let server: TestServer;
afterEach(() => server?.close());

describe("POST /fe/signin", () => {
  it("answers 200 with a new random token per sign-in, stored only as a hash", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const first = await signIn(server, "alice");
    const second = await signIn(server, "alice");
    expect(first).not.toBe(second);
    expect(Buffer.from(first, "base64url").length).toBeGreaterThanOrEqual(16);
    const stored = await server.services.db.all<{ hash: string; expires_at: number }>(
      `SELECT hash, expires_at FROM tokens`,
    );
    expect(stored).toHaveLength(2);
    expect(stored.map((s) => s.hash)).not.toContain(first);
    expect(Number(stored[0]!.expires_at)).toBeGreaterThan(Date.now());
  });

  it("answers 401 for a wrong password and for an unknown name, with the same reason", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const wrong = await fe(server, null, "/signin", { body: { name: "alice", password: "nope" } });
    const unknown = await fe(server, null, "/signin", {
      body: { name: "nobody", password: "nope" },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: "Wrong name or password" });
    expect(await unknown.json()).toEqual({ detail: "Wrong name or password" });
  });

  it("answers 422 in FastAPI's shape for a missing field and for invalid JSON", async () => {
    server = await startTestServer();
    const missing = await fe(server, null, "/signin", { body: { name: "alice" } });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      detail: [{ loc: ["body", "password"], msg: "Field required", type: "missing" }],
    });
    const wrongType = await fe(server, null, "/signin", { body: { name: 5, password: "x" } });
    expect(((await wrongType.json()) as { detail: unknown[] }).detail).toEqual([
      { loc: ["body", "name"], msg: "Input should be a valid string", type: "string_type" },
    ]);
    const invalid = await fe(server, null, "/signin", { body: "{not json" });
    expect(invalid.status).toBe(422);
    const body = (await invalid.json()) as {
      detail: Array<{ loc: unknown[]; type: string; msg: string }>;
    };
    expect(body.detail[0]).toMatchObject({ loc: ["body", 0], type: "json_invalid" });
  });

  it("answers 429 with a reason once a name has failed too often, even with the right password", async () => {
    let now = 1_000_000;
    server = await startTestServer({
      throttle: { windowMs: 60_000, maxPerName: 3, maxPerAddress: 100, now: () => now },
    });
    await addAccount(server, "alice");
    for (let i = 0; i < 3; i++) {
      expect(
        (await fe(server, null, "/signin", { body: { name: "alice", password: "bad" } })).status,
      ).toBe(401);
    }
    const refused = await fe(server, null, "/signin", {
      body: { name: "alice", password: "alice-password" },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /too many failed sign-ins; try again in 60 s/i,
    );
    now += 61_000;
    expect(await signIn(server, "alice")).toBeTruthy();
  });

  it("answers 413 for a body over 5 MiB without reading it all", async () => {
    server = await startTestServer();
    const huge = JSON.stringify({ name: "alice", password: "x".repeat(6 * 1024 * 1024) });
    const response = await fe(server, null, "/signin", { body: huge });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: "Request body larger than 5 MiB" });
  });
});
