import { afterEach, describe, expect, it } from "vitest";
import { setPassword } from "../accounts/index.ts";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";

// Streams end with their token however it ends: sign-out and revoke-tokens are in
// test/hostile/signout.test.ts; here a new password and plain expiry.

let server: TestServer | undefined;
afterEach(() => server?.close());

/** Resolves "ended" when the server ends the stream, "open" if it is still open after `ms`. */
async function streamEnds(token: string, ms: number): Promise<string> {
  const response = await fetch(`${server!.url}/fe/account/stream/error`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const ended = (async () => {
    while (!(await reader.read()).done);
    return "ended";
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("open"), ms)));
  const outcome = await Promise.race([ended, open]).finally(() => clearTimeout(timer));
  if (outcome === "open") await reader.cancel();
  return outcome;
}

describe("a stream ends with its token", () => {
  it("when the account's password changes", async () => {
    server = await startTestServer({ keepAliveMs: 100 });
    await addAccount(server, "pat");
    const token = await signIn(server, "pat");
    const ending = streamEnds(token, 5_000);
    await setPassword(server.services.db, "pat", "another-password");
    expect(await ending).toBe("ended");
  });

  it("when the token expires, and not before", async () => {
    server = await startTestServer({ keepAliveMs: 100, tokenTtlMs: 1_500 });
    await addAccount(server, "eve");
    const token = await signIn(server, "eve");
    expect(await streamEnds(token, 500)).toBe("open");
    expect(await streamEnds(token, 5_000)).toBe("ended");
    expect((await fe(server, token, "/account/info")).status).toBe(401);
  });
});
