import { afterEach, describe, expect, it } from "vitest";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";

let server: TestServer | undefined;
afterEach(() => server?.close());

describe("an unknown path under /fe", () => {
  it("answers 404 with FastAPI's JSON body, for any method", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    for (const [method, path] of [
      ["GET", "/account/nothing"],
      ["GET", "/nothing/at/all"],
      ["POST", "/account/nothing"],
    ] as const) {
      const response = await fe(server, token, path, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ detail: "Not Found" });
    }
  });
});
