// Issue 16, finding 6: twenty failed sign-ins from one address locked every account out of that
// address, and behind a TLS proxy everyone shares the proxy's address. Rule
// (docs/server-guide.md#untrusted-input, and docs/operations.md#running-it-in-production): throttling
// counts failures per name and per client address, the real client behind `--trust-proxy`
// (X-Forwarded-For), the header ignored without it; a 429 says in its detail and in Retry-After
// when to try again.

import { afterAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../fresh.ts";
import { corral, startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";

const running: CorralProcess[] = [];
afterAll(() => Promise.all(running.map((r) => r.kill())));

async function serveWithAccounts(...flags: string[]) {
  const database = freshDatabaseUrl();
  corral(database, "account", "new", "alice", "alice-password");
  corral(database, "account", "new", "bruno", "bruno-password");
  const server = await startCorral({ database, allowPrivateAddresses: false, args: flags });
  running.push(server);
  return server.url;
}

function signInFrom(url: string, client: string, name: string, password: string) {
  return fetch(`${url}/fe/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": client },
    body: JSON.stringify({ name, password }),
  });
}

/** Twenty wrong passwords from `client`, each for another unknown name (no name reaches 5). */
async function failTwentyTimes(url: string, client: string) {
  for (let i = 0; i < 20; i++) {
    const response = await signInFrom(url, client, `nobody${i}`, "wrong");
    expect(response.status).toBe(401);
  }
}

async function expectToldWhen(response: Response) {
  expect(response.status).toBe(429);
  const seconds = Number(response.headers.get("Retry-After"));
  expect(seconds).toBeGreaterThan(0);
  const { detail } = (await response.json()) as { detail: string };
  // When, in words: "try again in 840 s", or a time.
  expect(detail).toMatch(/(try again|retry).*\d/i);
}

describe("sign-in throttling per name and per real client address", () => {
  it("behind --trust-proxy tells clients apart by X-Forwarded-For", async () => {
    const url = await serveWithAccounts("--trust-proxy");
    await failTwentyTimes(url, "198.51.100.7");
    await expectToldWhen(await signInFrom(url, "198.51.100.7", "alice", "alice-password"));
    const other = await signInFrom(url, "198.51.100.8", "alice", "alice-password");
    expect(other.status).toBe(200);
  });

  it("behind --trust-proxy still counts failures per name, whichever the client", async () => {
    const url = await serveWithAccounts("--trust-proxy");
    for (let i = 0; i < 5; i++) {
      const response = await signInFrom(url, `198.51.100.${i + 10}`, "bruno", "wrong");
      expect(response.status).toBe(401);
    }
    await expectToldWhen(await signInFrom(url, "198.51.100.99", "bruno", "bruno-password"));
  });

  it("without --trust-proxy ignores X-Forwarded-For: the connection's address counts", async () => {
    const url = await serveWithAccounts();
    await failTwentyTimes(url, "198.51.100.7");
    await expectToldWhen(await signInFrom(url, "198.51.100.8", "alice", "alice-password"));
  });
});

// Issue 25, 7b: behind a proxy without --trust-proxy everyone shares the proxy's address, and one
// brute-forcer locks out all. The sign of it, X-Forwarded-For on a request, is said once.
describe("X-Forwarded-For while --trust-proxy is off", () => {
  const warning =
    /X-Forwarded-For.*--trust-proxy is off.*set --trust-proxy \(CORRAL_TRUST_PROXY=1\)/;

  /** stderr once the request log shows GET `path` (every earlier line is written by then). */
  async function stderrAfter(server: CorralProcess, path: string) {
    await (await fetch(`${server.url}${path}`)).body?.cancel();
    await expect.poll(() => server.stderr().includes(`GET ${path} `)).toBe(true);
    return server.stderr();
  }

  async function serve(...flags: string[]) {
    const server = await startCorral({
      database: freshDatabaseUrl(),
      allowPrivateAddresses: false,
      args: flags,
    });
    running.push(server);
    return server;
  }

  it("logs one warning per process that names the flag to set", async () => {
    const server = await serve();
    expect(await stderrAfter(server, "/fe/before-any-forwarded")).not.toMatch(warning);
    await failTwentyTimes(server.url, "198.51.100.7");
    const stderr = await stderrAfter(server, "/fe/after-twenty-forwarded");
    expect(stderr.split("\n").filter((line) => warning.test(line))).toHaveLength(1);
  });

  it("says nothing with --trust-proxy", async () => {
    const server = await serve("--trust-proxy");
    await signInFrom(server.url, "198.51.100.7", "nobody", "wrong");
    expect(await stderrAfter(server, "/fe/after-forwarded")).not.toMatch(/X-Forwarded-For/);
  });
});
