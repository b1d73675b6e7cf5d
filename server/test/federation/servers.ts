// Federation test fixtures on in-process Corral servers (test/server.ts starts them): accounts and
// actors made through the same store functions the API uses, event waits, a capturing remote.

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAccount } from "../../src/accounts/index.ts";
import { createActor } from "../../src/actors/index.ts";
import type { StreamName } from "../../src/fe/wire.ts";
import { execute } from "../../src/methods/index.ts";
import type { Services } from "../../src/services.ts";
import type { TestServer } from "../server.ts";

let accounts = 0;

/** A new account with one actor on `server`; returns both ids and a way to run methods as it. */
export async function addAccountWithActor(server: TestServer, options: { handle?: string } = {}) {
  const name = `acct${++accounts}_${process.pid % 1000}`;
  const created = await createAccount(server.services.db, {
    name,
    password: "secret-password",
    admin: true,
  });
  if (!created.ok) throw new Error(`account ${name}: ${created.error}`);
  const accountId = created.account.id;
  const actor = await createActor(server.services.db, {
    accountId,
    baseUrl: server.services.config.baseUrls[0]!,
    handle: options.handle ?? name,
  });
  if (!actor.ok) throw new Error(`actor: ${actor.error}`);
  const actorId = actor.actor.id;
  return {
    accountId,
    actorId,
    run: (method: string, body: Record<string, unknown>) =>
      execute(server.services, { accountId, method, body: { actor: actorId, ...body } }),
  };
}

// Events are arbitrary JSON; tests reach into them freely and let the assertions do the checking.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Event = Record<string, any>;

/** The events of a stream so far. */
export async function readEvents(
  services: Services,
  accountId: number,
  stream: StreamName,
): Promise<Event[]> {
  const rows = await services.events.readAfter(accountId, stream, 0, 10_000);
  return rows.map((row) => JSON.parse(row.data));
}

/** Waits until an event of the stream satisfies `match`; fails after `timeoutMs`. */
export async function waitForEvent(
  services: Services,
  accountId: number,
  stream: StreamName,
  match: (event: Event) => boolean,
  timeoutMs = 10_000,
): Promise<Event> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readEvents(services, accountId, stream)).find(match);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = await readEvents(services, accountId, stream);
      throw new Error(
        `no matching ${stream} event within ${timeoutMs} ms; saw ${JSON.stringify(seen).slice(0, 2000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface CaptureServer {
  url: string;
  actorId: string;
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: Buffer }[];
  close(): Promise<void>;
}

/**
 * A bare HTTP server standing in for a remote actor: it serves an actor document whose inbox is
 * `inboxUrl` (default: its own /inbox) and records every request byte for byte.
 */
export async function startCaptureServer(
  options: { inboxUrl?: string; status?: number } = {},
): Promise<CaptureServer> {
  const requests: CaptureServer["requests"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      if (req.method === "GET" && req.url === "/actor") {
        res.writeHead(200, { "Content-Type": "application/activity+json" });
        res.end(
          JSON.stringify({
            "@context": "https://www.w3.org/ns/activitystreams",
            id: `${base}/actor`,
            type: "Person",
            inbox: options.inboxUrl ?? `${base}/inbox`,
          }),
        );
      } else {
        res.writeHead(req.method === "POST" ? (options.status ?? 202) : 404);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    actorId: `${base}/actor`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
