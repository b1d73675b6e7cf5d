// How long the proxy believes the upstream's word on a token: an acceptance for the cache's life,
// a refusal for a second, a failure to answer not at all. Against a real HTTP upstream on
// 127.0.0.1; only the clock (Date) is moved by hand.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createUpstreamAccounts } from "./upstream-account.ts";

type Upstream = { url: string; asked: () => number; close: () => Promise<void> };

/** An upstream whose /fe/account/info answers 200 for "good", 401 for "refused", 503 otherwise. */
async function startUpstream(): Promise<Upstream> {
  let asked = 0;
  const server: Server = createServer((request, response) => {
    asked += 1;
    const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    const [status, body] =
      token === "good"
        ? [200, { accountName: "ana" }]
        : token === "refused"
          ? [401, { detail: "Not authenticated" }]
          : [503, { detail: "busy" }];
    response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked: () => asked,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

let upstream: Upstream;
const start = new Date("2026-11-28T12:00:00Z").getTime();

beforeEach(async () => {
  upstream = await startUpstream();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(start);
});

afterEach(async () => {
  vi.useRealTimers();
  await upstream.close();
});

/** Lets the cache's reaction to an answer (a then() on it) run before the clock moves on. */
const settle = () => new Promise((done) => setImmediate(done));

describe("the upstream's word on a token", () => {
  it("keeps an acceptance for the cache's life, then asks again", async () => {
    const accounts = createUpstreamAccounts(upstream.url, { cacheMs: 30_000 });
    expect(await accounts.ask("good")).toEqual({ ok: true, name: "ana" });
    await settle();
    vi.setSystemTime(start + 29_999);
    expect(await accounts.ask("good")).toEqual({ ok: true, name: "ana" });
    expect(upstream.asked()).toBe(1);
    vi.setSystemTime(start + 30_000);
    await accounts.ask("good");
    expect(upstream.asked()).toBe(2);
  });

  it("keeps a refusal for one second only, however long the cache's life", async () => {
    const accounts = createUpstreamAccounts(upstream.url, { cacheMs: 30_000 });
    expect(await accounts.ask("refused")).toMatchObject({ ok: false, status: 401 });
    await settle();
    vi.setSystemTime(start + 999);
    await accounts.ask("refused");
    expect(upstream.asked()).toBe(1);
    vi.setSystemTime(start + 1_000);
    expect(await accounts.ask("refused")).toMatchObject({ ok: false, status: 401 });
    expect(upstream.asked()).toBe(2);
  });

  it("keeps a refusal no longer than a cache's life shorter than a second", async () => {
    const accounts = createUpstreamAccounts(upstream.url, { cacheMs: 200 });
    await accounts.ask("refused");
    await settle();
    vi.setSystemTime(start + 199);
    await accounts.ask("refused");
    expect(upstream.asked()).toBe(1);
    vi.setSystemTime(start + 200);
    await accounts.ask("refused");
    expect(upstream.asked()).toBe(2);
  });

  it("does not keep an upstream failure: the next request asks again", async () => {
    const accounts = createUpstreamAccounts(upstream.url, { cacheMs: 30_000 });
    expect(await accounts.ask("other")).toMatchObject({ ok: false, status: 502 });
    await settle();
    await accounts.ask("other");
    expect(upstream.asked()).toBe(2);
  });

  it("asks once for requests that arrive while the question is open", async () => {
    const accounts = createUpstreamAccounts(upstream.url, { cacheMs: 30_000 });
    const answers = await Promise.all([accounts.ask("good"), accounts.ask("good")]);
    expect(answers).toEqual([
      { ok: true, name: "ana" },
      { ok: true, name: "ana" },
    ]);
    expect(upstream.asked()).toBe(1);
  });
});
