// Issue 25, item 5: delivering 10 activities to 500 new remote actors made 4,881 GETs of actor
// documents: each send resolved every recipient itself, and concurrent sends all missed the
// cache. Concurrent resolutions of one actor now share one request, and the result is cached:
// a real HTTP server counts the GETs it answers.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccount, addActor, fe, signIn, startTestServer, type TestServer } from "../server.ts";

const ACTORS = 50;
const SENDS = 10;

let server: TestServer;
let remote: { url: string; gets: Map<string, number>; posts: () => number; close(): void };

beforeAll(async () => {
  server = await startTestServer();
  const gets = new Map<string, number>();
  let posts = 0;
  const http = createServer((req, res) => {
    const match = /^\/actors\/a(\d+)(\/inbox)?$/.exec(req.url ?? "");
    if (!match) return void res.writeHead(404).end();
    req.resume();
    req.on("end", () => {
      if (req.method === "POST" && match[2]) {
        posts++;
        return void res.writeHead(202).end();
      }
      gets.set(req.url!, (gets.get(req.url!) ?? 0) + 1);
      const id = `${remote.url}/actors/a${match[1]}`;
      // Answered a little later, as a real server would: the sends overlap while it waits.
      setTimeout(() => {
        res.writeHead(200, { "Content-Type": "application/activity+json" });
        res.end(
          JSON.stringify({
            "@context": "https://www.w3.org/ns/activitystreams",
            id,
            type: "Person",
            inbox: `${id}/inbox`,
          }),
        );
      }, 20);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  remote = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    gets,
    posts: () => posts,
    close: () => {
      http.closeAllConnections();
      http.close();
    },
  };
});

afterAll(async () => {
  remote?.close();
  await server?.close();
});

describe("resolving remote inboxes", () => {
  it(`${SENDS} concurrent sends to ${ACTORS} new remote actors fetch each actor's document once`, async () => {
    await addAccount(server, "fetcher");
    const token = await signIn(server, "fetcher");
    const actor = await addActor(server, token);
    const to = Array.from({ length: ACTORS }, (_, i) => `${remote.url}/actors/a${i}`);
    const answers = await Promise.all(
      Array.from({ length: SENDS }, (_, k) =>
        fe(server, token, "/actor/trigger/send_message", {
          body: { actor: actor.id, data: { id: `${actor.id}/fetches/${k}`, type: "Create", to } },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(SENDS).fill(202));
    await expect.poll(() => remote.posts(), { timeout: 30_000 }).toBe(SENDS * ACTORS);
    expect([...remote.gets.values()].reduce((a, b) => a + b, 0)).toBe(ACTORS);
    expect(new Set(remote.gets.values())).toEqual(new Set([1]));

    // And a later send finds them all in the cache.
    const again = await fe(server, token, "/actor/trigger/send_message", {
      body: { actor: actor.id, data: { id: `${actor.id}/fetches/later`, type: "Create", to } },
    });
    expect(again.status).toBe(202);
    await expect.poll(() => remote.posts(), { timeout: 30_000 }).toBe((SENDS + 1) * ACTORS);
    expect(remote.gets.size).toBe(ACTORS);
    expect(new Set(remote.gets.values())).toEqual(new Set([1]));
  });
});
