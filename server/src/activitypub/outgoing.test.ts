import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { generateRsaKeyPair } from "../actors/key-columns.ts";
import { backendVersion } from "../version.ts";
import { prepareBody } from "./draft-signing.ts";
import { createOutgoing } from "./outgoing.ts";
import { signedGet, signedPost } from "./signing.ts";

// The way out's POST on a real loopback connection: what a delivery learns from an answer.

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0))
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<URL> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/inbox`);
}

const body = new TextEncoder().encode('{"type":"Create"}');

describe("Outgoing.post", () => {
  it("answers a 2xx with its status and no detail, the body sent byte for byte", async () => {
    let received = "";
    const url = await serve((req, res) => {
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (received += chunk));
      req.on("end", () => res.writeHead(202).end("accepted, and more words"));
    });
    const outgoing = createOutgoing({ allowPrivate: true });
    const answer = await outgoing.post(
      url,
      { "content-type": "application/activity+json" },
      body,
      new AbortController().signal,
    );
    expect(answer).toEqual({ status: 202, statusText: "Accepted", detail: "" });
    expect(received).toBe('{"type":"Create"}');
    await outgoing.close();
  });

  it("keeps an error answer's first 4 KiB and its Retry-After", async () => {
    const url = await serve((req, res) => {
      req.resume();
      res.writeHead(503, { "Retry-After": "120" }).end("x".repeat(100_000));
    });
    const outgoing = createOutgoing({ allowPrivate: true });
    const answer = await outgoing.post(url, {}, body, new AbortController().signal);
    expect(answer).toEqual({
      status: 503,
      statusText: "Service Unavailable",
      detail: "x".repeat(4096),
      retryAfter: "120",
    });
    await outgoing.close();
  });

  it("gives up when its signal aborts, with the signal's reason", async () => {
    const url = await serve((req) => req.resume()); // never answers
    const outgoing = createOutgoing({ allowPrivate: true });
    const controller = new AbortController();
    const posted = outgoing.post(url, {}, body, controller.signal);
    setTimeout(() => controller.abort(new DOMException("too slow", "TimeoutError")), 50);
    await expect(posted).rejects.toMatchObject({ name: "TimeoutError" });
    await outgoing.close();
  });
});

describe("the User-Agent", () => {
  it("names Corral, its version and this server's address on GETs and deliveries", async () => {
    const agents: string[] = [];
    const url = await serve((req, res) => {
      agents.push(req.headers["user-agent"] ?? "");
      req.resume();
      req.on("end", () =>
        req.method === "GET"
          ? res.writeHead(200, { "Content-Type": "application/activity+json" }).end("{}")
          : res.writeHead(202).end(),
      );
    });
    let site = "http://localhost:3000";
    const outgoing = createOutgoing({ allowPrivate: true, site: () => site });
    const { privateKey } = await generateRsaKeyPair();
    const signer = { keyId: new URL("http://localhost:3000/actor#main-key"), privateKey };
    expect(await signedGet(url.href, signer, { outgoing })).toMatchObject({ ok: true });
    // The address as it is when the request is made (it follows the port bound).
    site = "http://localhost:4000";
    const delivery = await signedPost(url.href, prepareBody("{}"), signer, { outgoing });
    expect(delivery).toMatchObject({ ok: true });
    expect(agents).toEqual([
      `Corral/${backendVersion} (+http://localhost:3000)`,
      `Corral/${backendVersion} (+http://localhost:4000)`,
    ]);
    expect(createOutgoing({ allowPrivate: true }).userAgent()).toBe(`Corral/${backendVersion}`);
    await outgoing.close();
  });
});
