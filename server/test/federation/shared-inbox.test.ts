import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccountWithActor, waitForEvent } from "./servers.ts";
import { startTestServer, type TestServer } from "../server.ts";

// One POST per shared inbox (as Mastodon does): recipients on one server that names a shared
// inbox get one copy there, not one each; a blind (bto/bcc) recipient gets it in its own inbox,
// since the copy no longer says whom it is for.

interface SharingServer {
  url: string;
  actor(n: number): string;
  posts: string[];
  close(): Promise<void>;
}

/** A remote server whose actors a0…a9 each have their own inbox and share /inbox. */
async function startSharingServer(): Promise<SharingServer> {
  const posts: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method === "POST") {
        posts.push(req.url!);
        return void res.writeHead(202).end();
      }
      const match = /^\/a(\d)$/.exec(req.url ?? "");
      if (req.method !== "GET" || !match) return void res.writeHead(404).end();
      const id = `${base}/a${match[1]}`;
      res.writeHead(200, { "Content-Type": "application/activity+json" });
      res.end(
        JSON.stringify({
          "@context": "https://www.w3.org/ns/activitystreams",
          id,
          type: "Person",
          inbox: `${id}/inbox`,
          endpoints: { sharedInbox: `${base}/inbox` },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    actor: (n) => `${base}/a${n}`,
    posts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let a: TestServer;
let b: TestServer;
let remote: SharingServer;

beforeAll(async () => {
  [a, b, remote] = await Promise.all([startTestServer(), startTestServer(), startSharingServer()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), remote?.close()]);
});

const note = (actor: string, id: string, audience: Record<string, string[]>) => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  type: "Create",
  id,
  actor,
  ...audience,
  object: { type: "Note", content: id },
});

describe("shared inboxes", () => {
  it("sends one POST to a shared inbox for three of its actors, and a blind recipient's copy to its own inbox", async () => {
    const alice = await addAccountWithActor(a);
    const data = note(alice.actorId, `${alice.actorId}/shared/1`, {
      to: [remote.actor(1), remote.actor(2)],
      cc: [remote.actor(3)],
      bcc: [remote.actor(4)],
    });
    await alice.run("send_message", { data });
    await expect.poll(() => remote.posts.length, { timeout: 10_000 }).toBe(2);
    expect(remote.posts.sort()).toEqual(["/a4/inbox", "/inbox"]);
  });

  it("gives every addressed actor on a Corral server its copy from one POST to that server's shared inbox", async () => {
    const alice = await addAccountWithActor(a);
    const [bob, carol] = await Promise.all([addAccountWithActor(b), addAccountWithActor(b)]);
    const id = `${alice.actorId}/shared/2`;
    await alice.run("send_message", {
      data: note(alice.actorId, id, { to: [bob.actorId, carol.actorId] }),
    });
    for (const who of [bob, carol])
      await waitForEvent(b.services, who.accountId, "incoming", (e) => e.data.raw.id === id);
    const rows = await a.services.db.all<{ inbox: string }>(
      `SELECT inbox FROM deliveries WHERE body_id IN (SELECT id FROM delivery_bodies WHERE body LIKE ?)`,
      [`%${id}%`],
    );
    expect(rows).toEqual([{ inbox: `${b.url}/inbox` }]);
  });
});
