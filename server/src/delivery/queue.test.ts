import { afterEach, describe, expect, it } from "vitest";
import { createAccount } from "../accounts/index.ts";
import { createActor } from "../actors/index.ts";
import { parseConfig } from "../config.ts";
import { openDatabase } from "../db/open.ts";
import { createEventLog, createMemoryBus } from "../events/index.ts";
import type { Services } from "../services.ts";
import { freshDatabaseUrl } from "../../test/fresh.ts";
import { startCaptureServer, type CaptureServer } from "../../test/federation/servers.ts";
import { enqueueDeliveries, startDeliveryWorker } from "./queue.ts";
import { RETENTION_MS, sweepEnded } from "../triggers/sweep.ts";
import { createHash } from "node:crypto";

// The queue on a real database file. On PostgreSQL (the postgres suite) two workers on two
// connections stand in for two processes; on SQLite, one process owns the file, so the second
// worker shares the first's connection (a second synchronous connection in the same thread would
// sleep in busy_timeout while holding up the first).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function openServices(url: string): Promise<Services> {
  const { db } = await openDatabase(url);
  cleanups.push(() => db.close());
  const config = parseConfig({
    database: url,
    allowPrivateAddresses: true,
    baseUrls: ["http://127.0.0.1:9"],
  });
  return {
    config,
    db,
    events: createEventLog(db, createMemoryBus(), { cap: 10_000 }),
    bus: createMemoryBus(),
    federation: undefined as never,
  };
}

async function setUp(status = 202) {
  const url = freshDatabaseUrl();
  const first = await openServices(url);
  const second = first.db.dialect === "postgres" ? await openServices(url) : { ...first };
  const account = await createAccount(first.db, { name: "queue", password: "queue-password" });
  if (!account.ok) throw new Error(account.error);
  const actor = await createActor(first.db, {
    accountId: account.account.id,
    baseUrl: "http://127.0.0.1:9",
  });
  if (!actor.ok) throw new Error(actor.error);
  const inbox: CaptureServer = await startCaptureServer({ status });
  cleanups.push(() => inbox.close());
  return { first, second, inbox, accountId: account.account.id, actorId: actor.actor.id };
}

describe("delivery queue", () => {
  it("delivers every queued row exactly once when two workers share the queue, and keeps each as delivered", async () => {
    const { first, second, inbox, accountId, actorId } = await setUp();
    const workers = [
      startDeliveryWorker(first, { pollMs: 50 }),
      startDeliveryWorker(second, { pollMs: 50 }),
    ];
    for (let n = 0; n < 150; n++) {
      await enqueueDeliveries(n % 2 ? first : second, {
        actorId,
        accountId,
        inboxes: [`${inbox.url}/inbox`],
        body: JSON.stringify({ n }),
        routingKey: "send_message",
        original: "{}",
      });
    }
    await expect
      .poll(() => inbox.requests.filter((r) => r.method === "POST").length, { timeout: 20_000 })
      .toBe(150);
    await Promise.all(workers.map((w) => w.stop()));
    const bodies = inbox.requests
      .map((r) => JSON.parse(r.body.toString()).n)
      .sort((x: number, y: number) => x - y);
    expect(bodies).toEqual(Array.from({ length: 150 }, (_, n) => n));
    await expect
      .poll(() => first.db.all(`SELECT state, COUNT(*) AS n FROM deliveries GROUP BY state`))
      .toEqual([{ state: "delivered", n: 150 }]);
  });

  it("keeps a failed row with its attempt count and a later due time, and reports each attempt", async () => {
    const { first, inbox, accountId, actorId } = await setUp(503);
    const worker = startDeliveryWorker(first, { pollMs: 50 });
    cleanups.push(() => worker.stop());
    const before = Date.now();
    await enqueueDeliveries(first, {
      actorId,
      accountId,
      inboxes: [`${inbox.url}/inbox`],
      body: "{}",
      routingKey: "send_message",
      original: '{"x":1}',
    });
    await expect
      .poll(
        async () =>
          (await first.db.get<{ attempt: number }>(`SELECT attempt FROM deliveries`))?.attempt,
      )
      .toBe(1);
    const row = await first.db.get<{ next_attempt_at: number; locked_until: number }>(
      `SELECT next_attempt_at, locked_until FROM deliveries`,
    );
    expect(Number(row!.next_attempt_at)).toBeGreaterThan(before + 25_000);
    expect(Number(row!.locked_until)).toBe(0);

    // Due again: the second attempt is reported as attempt 2.
    await first.db.run(`UPDATE deliveries SET next_attempt_at = 0`);
    await expect
      .poll(async () => (await first.events.readAfter(accountId, "error", 0)).length, {
        timeout: 5_000,
      })
      .toBe(2);
    const events = (await first.events.readAfter(accountId, "error", 0)).map((e) =>
      JSON.parse(e.data),
    );
    expect(events.map((e) => [e.attempt, e.status, e.original_message_body])).toEqual([
      [1, 503, '{"x":1}'],
      [2, 503, '{"x":1}'],
    ]);
    expect(events[1].message[1]).toContain("answered 503");
  });

  it("gives up at once on an answer no retry will change", async () => {
    const { first, inbox, accountId, actorId } = await setUp(410);
    const worker = startDeliveryWorker(first, { pollMs: 50 });
    cleanups.push(() => worker.stop());
    await enqueueDeliveries(first, {
      actorId,
      accountId,
      inboxes: [`${inbox.url}/inbox`],
      body: "{}",
      routingKey: "publish_object",
      original: "{}",
    });
    await expect
      .poll(async () => (await first.events.readAfter(accountId, "error", 0)).length)
      .toBe(1);
    const [event] = (await first.events.readAfter(accountId, "error", 0)).map((e) =>
      JSON.parse(e.data),
    );
    expect(event).toMatchObject({
      routing_key: "publish_object",
      status: 410,
      attempt: 1,
      final: true,
    });
    await expect
      .poll(() => first.db.all(`SELECT state, status, attempt FROM deliveries`))
      .toEqual([{ state: "failed", status: 410, attempt: 1 }]);
  });

  it("stores a body once for all its inboxes, sends it byte for byte with one Digest, and sweeps it once no delivery names it", async () => {
    const { first, accountId, actorId } = await setUp();
    const inboxes = await Promise.all([1, 2, 3].map(() => startCaptureServer()));
    for (const inbox of inboxes) cleanups.push(() => inbox.close());
    const body = JSON.stringify({ type: "Create", content: "ü ✓ once" });
    await enqueueDeliveries(first, {
      actorId,
      accountId,
      inboxes: inboxes.map((i) => `${i.url}/inbox`),
      body,
      routingKey: "send_message",
      original: "{}",
    });
    const stored = await first.db.all<{ body: string; digest: string }>(
      `SELECT body, digest FROM delivery_bodies`,
    );
    const digest = `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
    expect(stored).toEqual([{ body, digest }]);
    expect(await first.db.all(`SELECT DISTINCT body FROM deliveries`)).toEqual([{ body: "" }]);

    const worker = startDeliveryWorker(first, { pollMs: 50 });
    cleanups.push(() => worker.stop());
    await expect
      .poll(() => inboxes.map((i) => i.requests.filter((r) => r.method === "POST").length))
      .toEqual([1, 1, 1]);
    for (const inbox of inboxes) {
      const post = inbox.requests.find((r) => r.method === "POST")!;
      expect(post.body.equals(Buffer.from(body, "utf8"))).toBe(true);
      expect(post.headers.digest).toBe(digest);
    }
    await expect
      .poll(() => first.db.all(`SELECT DISTINCT state FROM deliveries`))
      .toEqual([{ state: "delivered" }]);

    // Kept while a delivery names it; gone with the last of them.
    const later = Date.now() + RETENTION_MS + 60_000;
    await first.db.run(
      `UPDATE deliveries SET state = 'retrying' WHERE id = (SELECT MIN(id) FROM deliveries)`,
    );
    await sweepEnded(first.db, later);
    expect(await first.db.all(`SELECT id FROM delivery_bodies`)).toHaveLength(1);
    await first.db.run(`UPDATE deliveries SET state = 'delivered'`);
    await sweepEnded(first.db, later);
    expect(await first.db.all(`SELECT id FROM deliveries`)).toEqual([]);
    expect(await first.db.all(`SELECT id FROM delivery_bodies`)).toEqual([]);
  });

  it("writes the outcomes of attempts that end together in one go, a host's failure after its success included", async () => {
    const { first, accountId, actorId } = await setUp();
    const answering = await startCaptureServer();
    const refusing = await startCaptureServer({ status: 503 });
    cleanups.push(
      () => answering.close(),
      () => refusing.close(),
    );
    await enqueueDeliveries(first, {
      actorId,
      accountId,
      inboxes: [
        ...Array.from({ length: 40 }, (_, i) => `${answering.url}/inbox/${i}`),
        `${refusing.url}/inbox`,
      ],
      body: "{}",
      routingKey: "send_message",
      original: "{}",
    });
    const worker = startDeliveryWorker(first, { pollMs: 50 });
    cleanups.push(() => worker.stop());
    await expect
      .poll(() =>
        first.db.all(`SELECT state, COUNT(*) AS n FROM deliveries GROUP BY state ORDER BY state`),
      )
      .toEqual([
        { state: "delivered", n: 40 },
        { state: "retrying", n: 1 },
      ]);
    const hosts = await first.db.all<{ host: string; failing: number | null; ok: number | null }>(
      `SELECT host, failing_since AS failing, last_success_at AS ok FROM hosts ORDER BY host`,
    );
    const byHost = new Map(hosts.map((h) => [h.host, h]));
    expect(byHost.get(new URL(answering.url).host)).toMatchObject({ failing: null });
    expect(byHost.get(new URL(answering.url).host)?.ok).not.toBeNull();
    expect(byHost.get(new URL(refusing.url).host)?.failing).not.toBeNull();
  });
});
