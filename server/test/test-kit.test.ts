// The shared launcher (test-kit/corral-process.ts) that unit, browser and bench tests start
// Corral with: it says why a server did not start, and a stop is a clean shutdown. And the
// shared wait for a peer's late write (test-kit/poll-until.ts).

import { describe, expect, it } from "vitest";
import { startCorral } from "../../test-kit/corral-process.ts";
import { pollUntil } from "../../test-kit/poll-until.ts";
import { signIn } from "../../test-kit/sign-in.ts";
import { freshDatabaseUrl } from "./fresh.ts";

describe("test-kit's corral launcher", () => {
  it("rejects with what corral serve printed when it exits before serving", async () => {
    await expect(
      startCorral({ database: freshDatabaseUrl(), args: ["--log-format", "xml"] }),
    ).rejects.toThrow(/exited \(2\) before serving:\n.*--log-format: must be text or json/);
  });

  it("serves on 127.0.0.1 with its port in the base URL, and stops with exit code 0", async () => {
    const server = await startCorral({ database: freshDatabaseUrl() });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      const info = await fetch(`${server.url}/.well-known/nodeinfo`);
      expect(info.status).toBe(200);
      // A wrong password is an error that says so, not a token.
      await expect(signIn(server, "operator", "wrong")).rejects.toThrow(
        /sign-in of operator answered 401/,
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("test-kit's pollUntil", () => {
  it("resolves once the check holds, counting a rejection as not yet", async () => {
    let calls = 0;
    await pollUntil("the third call", async () => {
      calls += 1;
      if (calls === 1) throw new Error("not reachable yet");
      return calls === 3;
    });
    expect(calls).toBe(3);
  });

  it("rejects after its time with what it waited for and the last rejection's message", async () => {
    await expect(
      pollUntil(
        "the token of ana",
        () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:9")),
        100,
      ),
    ).rejects.toThrow(
      /^the token of ana: not seen within 100 ms \(last: connect ECONNREFUSED 127\.0\.0\.1:9\)$/,
    );
    await expect(pollUntil("a state", async () => false, 100)).rejects.toThrow(
      /^a state: not seen within 100 ms$/,
    );
  });
});
