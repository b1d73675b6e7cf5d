import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { openDatabase } from "../../src/db/open.ts";
import { postAll, startRoundRobinProxy, type RoundRobinProxy } from "../cluster.ts";
import { startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";
import { createTestDatabase, type TestDatabase } from "../db/postgres-test-database.ts";
import {
  countIncoming,
  createInboxCast,
  signInboxPosts,
  type InboxCast,
} from "../inbox-traffic.ts";
import { openSse } from "../sse.ts";
import { signIn } from "../../../test-kit/sign-in.ts";

// docs/operations.md#several-processes-on-one-postgresql with real processes: two `--role web` and
// one `--role worker` on one PostgreSQL, behind a round-robin proxy. The full 3,000-activity figure
// is in `npm run bench` (scale).

let database: TestDatabase;
let db: Db;
let proxy: RoundRobinProxy;
let web: CorralProcess[] = [];
let worker: CorralProcess;
let cast: InboxCast;

beforeAll(async () => {
  database = await createTestDatabase();
  proxy = await startRoundRobinProxy();
  // The test's own pool migrates the database and seeds the accounts, as `corral account` would.
  ({ db } = await openDatabase(database.url, { pool: 4 }));
  cast = await createInboxCast(db, proxy.url, 2);
  const common = ["--database", database.url, "--base-url", proxy.url];
  web = await Promise.all(
    [1, 2].map(() => startCorral({ port: 0, args: [...common, "--role", "web"] })),
  );
  worker = await startCorral({ port: 0, args: [...common, "--role", "worker"] });
  proxy.backends = web.map((p) => p.url);
}, 180_000); // processes that start slowly on a loaded machine (test-kit/corral-process.ts)

afterAll(async () => {
  await Promise.all([...web, worker].filter(Boolean).map((p) => p.stop()));
  await proxy?.close();
  await db?.close();
  await database?.drop();
});

const direct = (target: CorralProcess, posts: Awaited<ReturnType<typeof signInboxPosts>>) =>
  postAll(posts, [target.url], { concurrency: 4 });

describe("web×2 + worker on one PostgreSQL", () => {
  it("answers /healthz everywhere, /readyz on web processes, and nothing else on the worker", async () => {
    for (const p of [...web, worker]) expect((await fetch(`${p.url}/healthz`)).status).toBe(200);
    for (const p of web) expect((await fetch(`${p.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${worker.url}/fe/signin`, { method: "POST" })).status).toBe(404);
  });

  it("puts an activity accepted by one web process on a stream held by the other, and replays it there", async () => {
    const [one, two] = web as [CorralProcess, CorralProcess];
    const token = await signIn(one.url, "r0");
    const headers = { Authorization: `Bearer ${token}` };
    const live = await openSse(`${two.url}/fe/account/stream/incoming`, headers);
    await live.waitFor((f) => f.comment === "connected");
    const posts = await signInboxPosts(db, cast, proxy.url, 8); // r0 gets 0, 2, 4, 6
    expect((await direct(one, posts.slice(0, 2))).accepted).toHaveLength(2);
    const [first] = await live.waitForData(1);
    expect(JSON.parse(first!.data!).data.raw.id).toBe(posts[0]!.id);
    live.close();
    expect((await direct(two, posts.slice(2))).accepted).toHaveLength(6);
    const replay = await openSse(`${one.url}/fe/account/stream/incoming`, {
      ...headers,
      "Last-Event-ID": first!.id!,
    });
    const frames = await replay.waitForData(3);
    replay.close();
    // Sent four at a time, so stored in any order; each once, after the Last-Event-ID.
    expect(frames.map((f) => JSON.parse(f.data!).data.raw.id).sort()).toEqual(
      [2, 4, 6].map((n) => posts[n]!.id).sort(),
    );
    expect(frames.map((f) => Number(f.id))).toEqual(
      [2, 3, 4].map((n) => n + Number(first!.id) - 1),
    );
  });

  it("has the worker deliver what a web process queued", async () => {
    const token = await signIn(proxy.url, "r0");
    const from = cast.recipients[0]!;
    const to = cast.recipients[1]!;
    const note = { id: `${from.actorId}/notes/worker-test`, type: "Create", actor: from.actorId };
    const response = await fetch(`${proxy.url}/fe/actor/trigger/send_message`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ actor: from.actorId, data: { ...note, to: [to.actorId] } }),
    });
    expect(response.status).toBe(202);
    await expect
      .poll(async () => (await countIncoming(db, cast)).get(note.id), { timeout: 15_000 })
      .toBe(1);
  });

  it("accepts 1,000 signed inbox POSTs at 64 in flight: no failure, each on its stream once, live on both web processes", async () => {
    const posts = await signInboxPosts(db, cast, proxy.url, 1000);
    // Two subscribers of r1's stream on each web process: the bursts reach all four, each once.
    const token = await signIn(proxy.url, "r1");
    const streams = await Promise.all(
      [...web, ...web].map((p) =>
        openSse(`${p.url}/fe/account/stream/incoming`, { Authorization: `Bearer ${token}` }),
      ),
    );
    await Promise.all(streams.map((s) => s.waitFor((f) => f.comment === "connected")));
    const result = await postAll(posts, [proxy.url], { concurrency: 64 });
    expect(result.failures).toEqual({});
    const counts = await countIncoming(db, cast);
    expect(posts.filter((p) => counts.get(p.id) !== 1)).toEqual([]);
    const forR1 = posts.filter((_, n) => n % 2 === 1).map((p) => p.id);
    for (const sse of streams) {
      const frames = await sse.waitForData(500, 20_000);
      sse.close();
      const ids = frames.map((f) => Number(f.id));
      expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
      expect(frames.map((f) => JSON.parse(f.data!).data.raw.id).sort()).toEqual(forR1.sort());
    }
  }, 60_000);

  it("loses no accepted activity when a web process is killed -9 mid-burst", async () => {
    const posts = await signInboxPosts(db, cast, proxy.url, 1000);
    const victim = web[1]!;
    let killed: Promise<void> | undefined;
    const result = await postAll(posts, [proxy.url], {
      concurrency: 64,
      retry: true, // a sender tries again after a failure, as ActivityPub servers do
      onAccepted: (count) => {
        if (count === 300) killed = victim.kill();
      },
    });
    await killed;
    expect(killed).toBeDefined();
    const counts = await countIncoming(db, cast);
    // Accepted means stored: every 2xx is on its stream.
    expect(result.accepted.filter((id) => !counts.has(id))).toEqual([]);
    expect(posts.filter((p) => !counts.has(p.id))).toEqual([]);
    // Stored twice only when the first try was in flight at the kill and got no answer.
    const failed = Object.values(result.failures).reduce((a, b) => a + b, 0);
    const doubled = posts.filter((p) => (counts.get(p.id) ?? 0) > 1).length;
    expect(doubled).toBeLessThanOrEqual(Math.min(failed, 64));
  }, 60_000);
});
