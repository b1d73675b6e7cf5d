// Issue 16, finding 7: there was no way to end a token (no sign-out route; tokens live 30 days),
// and a stream opened before `account revoke-tokens` stayed open. Rule
// (docs/api.md#post-fesignout): `POST /fe/signout` ends the caller's token (204); streams opened
// with a token close when it ends (sign-out, `account revoke-tokens`, …). Issue 25: within 2 s, not
// at the next keep-alive (15 s, the default here).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../fresh.ts";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../server.ts";
import { corral } from "../../../test-kit/corral-process.ts";

const database = freshDatabaseUrl();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ database });
  await addAccount(server, "sam");
});
afterAll(() => server?.close());

/** Opens the incoming stream; `ended` settles when the server ends the response. */
async function openStream(token: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/fe/account/stream/incoming`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const ended = (async () => {
    try {
      while (!(await reader.read()).done);
      return "ended by the server";
    } catch {
      return "aborted";
    }
  })();
  return { ended, close: () => controller.abort() };
}

/** Resolves with how the stream ended, or "still open" after `ms`. */
function within(ended: Promise<string>, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`still open after ${ms} ms`), ms);
  });
  return Promise.race([ended, timeout]).finally(() => clearTimeout(timer));
}

describe("a session ends when asked", () => {
  it("POST /fe/signout answers 204 and the token stops working", async () => {
    const token = await signIn(server, "sam");
    const other = await signIn(server, "sam");
    expect((await fe(server, token, "/account/info")).status).toBe(200);
    const response = await fe(server, token, "/signout", { method: "POST" });
    expect(response.status).toBe(204);
    expect((await fe(server, token, "/account/info")).status).toBe(401);
    expect((await fe(server, other, "/account/info")).status, "only the caller's token").toBe(200);
  });

  it("a stream opened before sign-out closes within 2 s of it; the account's other streams stay", async () => {
    const token = await signIn(server, "sam");
    const other = await signIn(server, "sam");
    const stream = await openStream(token);
    const kept = await openStream(other);
    try {
      expect((await fe(server, token, "/signout", { method: "POST" })).status).toBe(204);
      expect(await within(stream.ended, 2_000)).toBe("ended by the server");
      expect(await within(kept.ended, 1_500)).toBe("still open after 1500 ms");
    } finally {
      stream.close();
      kept.close();
    }
  });

  it("a stream opened before `corral account password` closes within 2 s of it", async () => {
    const token = await signIn(server, "sam");
    const stream = await openStream(token);
    try {
      corral(database, "account", "password", "sam", "sam-password");
      expect(await within(stream.ended, 2_000)).toBe("ended by the server");
    } finally {
      stream.close();
    }
  });

  it("a stream opened before `corral account revoke-tokens` closes within 2 s of it", async () => {
    const token = await signIn(server, "sam");
    const stream = await openStream(token);
    try {
      corral(database, "account", "revoke-tokens", "sam");
      expect((await fe(server, token, "/account/info")).status).toBe(401);
      expect(await within(stream.ended, 2_000)).toBe("ended by the server");
    } finally {
      stream.close();
    }
  });
});
