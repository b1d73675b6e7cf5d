import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startProxyServer } from "../main.ts";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";
import { openSse } from "../../test/sse.ts";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function makeConsoleBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), "corral-console-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><title>Corral console</title><script type="module" src="/assets/app-1234.js"></script>`,
  );
  writeFileSync(join(dir, "assets", "app-1234.js"), `console.log("console")`);
  return dir;
}

async function start(input: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(input);
  closers.push(() => server.close());
  return server;
}

const page = { headers: { Accept: "text/html,application/xhtml+xml" } };

describe("the console on the same origin", () => {
  it("serves files, and index.html for console routes a browser opens", async () => {
    const server = await start({ consoleDir: makeConsoleBuild() });
    const asset = await fetch(`${server.url}/assets/app-1234.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    for (const route of ["/", "/signin", "/stream/incoming", "/lookup"]) {
      const response = await fetch(`${server.url}${route}`, page);
      expect(response.status, route).toBe(200);
      expect(await response.text()).toContain("<title>Corral console</title>");
    }
    expect((await fetch(`${server.url}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/../../etc/passwd`)).status).toBe(404);
  });

  it("serves index.html for a host's page, whose name has dots and a port", async () => {
    const server = await start({ consoleDir: makeConsoleBuild() });
    for (const route of ["/deliveries/mastodon.social", "/deliveries/127.0.0.1%3A8080"]) {
      const response = await fetch(`${server.url}${route}`, page);
      expect(response.status, route).toBe(200);
      expect(await response.text()).toContain("<title>Corral console</title>");
    }
    // Elsewhere a dotted name is still a missing file, not a page.
    expect((await fetch(`${server.url}/missing.png`, page)).status).toBe(404);
  });

  it("sends security headers: a CSP that forbids framing, nosniff, a referrer policy", async () => {
    const server = await start({ consoleDir: makeConsoleBuild() });
    const response = await fetch(`${server.url}/signin`, page);
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const api = await fe(server, null, "/account/info");
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("explains how to build the console when there is no build", async () => {
    const server = await start({ consoleDir: join(tmpdir(), "corral-no-such-console") });
    const response = await fetch(`${server.url}/`, page);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("npm run build");
  });
});

describe("proxy mode (--upstream)", () => {
  it("forwards /fe with status, headers and bodies intact, and streams events as they arrive", async () => {
    const upstream = await start();
    const account = await addAccount(upstream, "alice");
    const proxy = await startProxyServer({
      upstream: upstream.url,
      host: "127.0.0.1",
      port: 0,
      consoleDir: makeConsoleBuild(),
    });
    closers.push(() => proxy.close());

    const refused = await fetch(`${proxy.url}/fe/account/info`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe("Bearer");
    expect(await refused.json()).toEqual({ detail: "Not authenticated" });

    const signin = await fetch(`${proxy.url}/fe/signin`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "alice", password: "alice-password" }),
    });
    expect(signin.status).toBe(200);
    const { token } = (await signin.json()) as { token: string };
    expect(
      (
        await fetch(`${proxy.url}/fe/account/info`, {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(200);

    const sse = await openSse(`${proxy.url}/fe/account/stream/incoming`, {
      Authorization: `Bearer ${token}`,
    });
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await sse.waitFor((f) => f.comment === "connected");
    await upstream.services.events.append(account.id, "incoming", { n: 1 });
    expect((await sse.waitForData(1))[0]).toEqual({ id: "1", data: '{"n":1}' });
    await upstream.services.events.append(account.id, "incoming", { n: 2 });
    expect((await sse.waitForData(2))[1]).toEqual({ id: "2", data: '{"n":2}' });
    sse.close();

    const consolePage = await fetch(`${proxy.url}/stream/incoming`, page);
    expect(await consolePage.text()).toContain("Corral console");
  });

  it("answers 502 with the reason when the upstream is unreachable", async () => {
    const proxy = await startProxyServer({
      upstream: "http://127.0.0.1:1",
      host: "127.0.0.1",
      port: 0,
    });
    closers.push(() => proxy.close());
    const response = await fetch(`${proxy.url}/fe/account/info`);
    expect(response.status).toBe(502);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/unreachable/);
  });
});

describe("unknown federation paths", () => {
  it("answer 404, not the console page", async () => {
    const server = await start({ consoleDir: makeConsoleBuild() });
    await addAccount(server, "alice");
    await signIn(server, "alice");
    const host = new URL(server.url).host;
    expect(
      (await fetch(`${server.url}/.well-known/webfinger?resource=acct:nobody@${host}`, page))
        .status,
    ).toBe(404);
    expect(
      (
        await fetch(`${server.url}/actor/unknown`, {
          headers: { Accept: "application/activity+json" },
        })
      ).status,
    ).toBe(404);
  });
});
