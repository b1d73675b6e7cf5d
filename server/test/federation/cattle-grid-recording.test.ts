// Proxy mode in front of the real cattle_grid 0.5.22 with --upstream-amqp: Corral records every
// account's events from cattle_grid's RabbitMQ (test-peers/cattle-grid.ts: its own vhost and
// database) and answers /fe/account/events for the signed-in account only. Corral runs as
// `corral serve` in a child process so that it can be killed outright while Notes flow.

import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import amqp from "amqplib";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCattleGrid, type CattleGrid } from "../../../test-peers/cattle-grid.ts";
import { checkPrerequisites, thisMachine } from "../../../test-peers/prerequisites.ts";
import {
  startCorral as startCorralProcess,
  type CorralProcess,
} from "../../../test-kit/corral-process.ts";

const execFileAsync = promisify(execFile);
const AS = "https://www.w3.org/ns/activitystreams";
const NOTES = 30;

let cg: CattleGrid;
let corral: CorralProcess | undefined;
let dir: string;
let database: string;
const tokens: Record<string, string> = {};
let ana: { id: string };
let ben: { id: string };

type Entry = { id: number; history_id: string; event: { data: { raw: Record<string, unknown> } } };

beforeAll(async () => {
  cg = await startCattleGrid();
  dir = mkdtempSync(join(tmpdir(), "corral-recording-"));
  database = `sqlite:${join(dir, "corral.db")}`;
  await Promise.all(["alice", "bob", "carol"].map((n) => cg.createAccount(n, `${n}-password`)));
  for (const name of ["alice", "bob", "carol"])
    tokens[name] = await cg.signIn(name, `${name}-password`);
  [ana, ben] = await Promise.all([createActor("alice", "ana"), createActor("bob", "ben")]);
  corral = await startCorral();
}, 600_000);

afterAll(async () => {
  await corral?.kill();
  await cg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("recording cattle_grid's events from its broker", { timeout: 180_000 }, () => {
  it("records every Note once across a kill -9 of Corral while Notes flow", async () => {
    const sent: string[] = [];
    const sendNotes = async (from: number, to: number) => {
      for (let i = from; i < to; i++) sent.push(await sendNote(i));
    };
    const flowing = sendNotes(0, NOTES);
    // Killed once some Notes are recorded and others are still to come.
    await waitFor(async () => (await noteIds("bob", "incoming")).length >= 8, "8 Notes recorded");
    await corral!.kill();
    await flowing;
    expect((await noteIds("bob", "incoming").catch(() => null)) ?? null).toBeNull();
    corral = await startCorral();
    await waitFor(
      async () => (await noteIds("bob", "incoming")).length >= NOTES,
      `all ${NOTES} Notes at bob's incoming`,
    );
    const incoming = await noteIds("bob", "incoming");
    expect(incoming.length).toBe(NOTES);
    expect(new Set(incoming)).toEqual(new Set(sent));
    await waitFor(async () => (await noteIds("alice", "outgoing")).length >= NOTES, "outgoing");
    expect((await noteIds("alice", "outgoing")).sort()).toEqual([...sent].sort());
  });

  it("answers the history of the token's account only, by id, text and time", async () => {
    const bobs = await history("bob", "incoming", "limit=500");
    expect(bobs.every((e) => e.event.data.raw.actor === ana.id)).toBe(true);
    // alice's outgoing holds her own Creates; bob's incoming is never hers, nor carol's anything.
    const alices = await history("alice", "all", "limit=500");
    expect(alices.some((e) => (e.event as { event_type?: string }).event_type === "incoming")).toBe(
      false,
    );
    expect(await history("carol", "all", "limit=500")).toEqual([]);
    // Nothing in the request names the account: a query naming another is not read as one.
    expect(await history("carol", "all", "limit=500&account=bob&actor=")).toEqual([]);
    const first = bobs.at(-1)!;
    const byId = await history("bob", "incoming", `id=${first.id}`);
    expect(byId.map((e) => e.id)).toEqual([first.id]);
    const content = (first.event.data.raw.object as { content: string }).content;
    const found = await history("bob", "incoming", `q=${encodeURIComponent(content)}`);
    expect(found.map((e) => e.id)).toEqual([first.id]);
    const since = await history(
      "bob",
      "incoming",
      `since=${new Date(Date.now() + 60_000).toISOString()}`,
    );
    expect(since).toEqual([]);
    const unsigned = await fetch(`${corral!.url}/fe/account/events/all`);
    expect(unsigned.status).toBe(401);
    const forged = await fetch(`${corral!.url}/fe/account/events/all`, {
      headers: { Authorization: "Bearer not-a-token" },
    });
    expect(forged.status).toBe(401);
  });

  it("stores an event the broker delivers twice once (its history_id)", async () => {
    const before = (await history("bob", "incoming", "limit=500")).length;
    const [one] = await history("bob", "incoming", "limit=1");
    const connection = await amqp.connect(cg.amqpUrl);
    const channel = await connection.createConfirmChannel();
    const copy = { ...one!.event, history_id: randomUUID() };
    for (let i = 0; i < 2; i++) {
      channel.publish("amq.topic", "combined.bob", Buffer.from(JSON.stringify(copy)));
    }
    await channel.waitForConfirms();
    await connection.close();
    await waitFor(
      async () => (await history("bob", "incoming", "limit=500")).length > before,
      "the copy recorded",
    );
    // Give a second copy every chance to be stored too: the next event sent lands after it.
    const marker = await sendNote(NOTES + 1);
    await waitFor(async () => (await noteIds("bob", "incoming")).includes(marker), "marker");
    expect((await history("bob", "incoming", "limit=500")).length).toBe(before + 2);
  });

  it("records what comes after a kill -9 and restart of cattle_grid", async () => {
    await cg.kill();
    await cg.start();
    const sent = await sendNote(NOTES + 3);
    await waitFor(async () => (await noteIds("bob", "incoming")).includes(sent), "the Note");
    expect((await fetch(`${corral!.url}/readyz`)).status).toBe(200);
  });

  it("says in /readyz and the info answer that it records", async () => {
    const ready = await fetch(`${corral!.url}/readyz`);
    expect(ready.status).toBe(200);
    const info = await fetch(`${corral!.url}/fe/account/info`, {
      headers: { Authorization: `Bearer ${tokens.bob}` },
    });
    const body = (await info.json()) as { accountName: string; corralProxy: unknown };
    expect(body.accountName).toBe("bob");
    expect(body.corralProxy).toMatchObject({ events: true, recording: true });
    expect(JSON.stringify(body.corralProxy)).toContain("RabbitMQ");
    expect(JSON.stringify(body.corralProxy)).not.toContain("guest:guest");
  });
});

describe("writes cattle_grid answers before it commits them", { timeout: 120_000 }, () => {
  // cattle_grid commits a sign-in's token and a new actor after its answer is sent
  // (docs/cattle-grid-differences.md#writes-answered-before-they-are-committed). A lock that holds
  // its writes back makes that moment as long as the test needs.
  const holdingWrites = async <T>(table: string, body: () => Promise<T>): Promise<T> => {
    const sql = postgres(cg.databaseUrl, { max: 1, onnotice: () => {} });
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    let locked!: () => void;
    const held = new Promise<void>((done) => (locked = done));
    const transaction = sql.begin(async (tx) => {
      await tx.unsafe(`LOCK TABLE ${table} IN SHARE MODE`);
      locked();
      await released;
    });
    try {
      await held;
      return await body();
    } finally {
      release();
      await transaction;
      await sql.end({ timeout: 1 });
    }
  };
  const signInAt = (origin: string) =>
    fetch(`${origin}/fe/signin`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "carol", password: "carol-password" }),
    });
  const infoAt = (origin: string, token: string) =>
    fetch(`${origin}/fe/account/info`, { headers: { Authorization: `Bearer ${token}` } });
  const pending = (promise: Promise<unknown>, ms: number) =>
    Promise.race([
      promise.then(() => false),
      new Promise<boolean>((done) => setTimeout(() => done(true), ms)),
    ]);

  it("cattle_grid itself: its sign-in answers 200 while its token is still refused", async () => {
    const token = await holdingWrites("authenticationtoken", async () => {
      const signin = await signInAt(cg.origin);
      expect(signin.status).toBe(200);
      const { token } = (await signin.json()) as { token: string };
      expect((await infoAt(cg.origin, token)).status).toBe(401);
      return token;
    });
    await waitFor(async () => (await infoAt(cg.origin, token)).status === 200, "the token");
  });

  it("through Corral: the sign-in answers once its token works", async () => {
    // The answer is awaited only once the lock is gone (holdingWrites would otherwise wait on it).
    const { signin } = await holdingWrites("authenticationtoken", async () => {
      const signin = signInAt(corral!.url);
      // cattle_grid has answered within a few hundred ms; Corral holds the answer back.
      expect(await pending(signin, 1_500)).toBe(true);
      return { signin };
    });
    const answered = await signin;
    expect(answered.status).toBe(200);
    const { token } = (await answered.json()) as { token: string };
    expect((await infoAt(corral!.url, token)).status).toBe(200);
  });

  it("through Corral: a token still refused after 5 s is a 502 with the reason, not a sign-in", async () => {
    const answer = await holdingWrites("authenticationtoken", async () => {
      const response = await signInAt(corral!.url);
      return { status: response.status, body: await response.json() };
    });
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({
      detail: expect.stringMatching(/answered the sign-in, but still refused its token 5 s later$/),
    });
  });

  it("through Corral: a created actor is answered once the account lists it", async () => {
    const token = await cg.signIn("carol", "carol-password");
    const { create } = await holdingWrites("actorforaccount", async () => {
      const create = fetch(`${corral!.url}/fe/account/create`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ baseUrl: cg.origin, handle: "cleo" }),
      });
      expect(await pending(create, 1_500)).toBe(true);
      return { create };
    });
    const answered = await create;
    expect(answered.status).toBe(201);
    const { id } = (await answered.json()) as { id: string };
    const info = (await (await infoAt(corral!.url, token)).json()) as { actors: { id: string }[] };
    expect(info.actors.map((actor) => actor.id)).toContain(id);
  });
});

describe("a broker connection that drops", { timeout: 180_000 }, () => {
  it("says so in /readyz and the log, connects again with backoff, and loses nothing", async () => {
    // A RabbitMQ user of its own, so that only Corral's connection is dropped and refused.
    const vhost = new URL(cg.amqpUrl).pathname.slice(1);
    const user = `corral_${randomUUID().slice(0, 8)}`;
    await rabbit("add_user", user, "recorder-password");
    try {
      const allow = () => rabbit("set_permissions", "-p", vhost, user, ".*", ".*", ".*");
      await allow();
      await corral!.kill();
      const url = new URL(cg.amqpUrl);
      url.username = user;
      url.password = "recorder-password";
      corral = await startCorral(url.href);
      const before = await noteIds("bob", "incoming");

      await rabbit("clear_permissions", "-p", vhost, user);
      const connections = (await rabbit("list_connections", "pid", "user"))
        .split("\n")
        .filter((line) => line.trim().endsWith(`\t${user}`) || line.trim().endsWith(` ${user}`))
        .map((line) => line.trim().split(/\s+/)[0]!);
      expect(connections.length).toBeGreaterThan(0);
      for (const pid of connections) await rabbit("close_connection", pid, "test drop");

      await waitFor(async () => (await fetch(`${corral!.url}/readyz`)).status === 503, "503");
      const reason = await (await fetch(`${corral!.url}/readyz`)).text();
      expect(reason).toMatch(/^not recording: the broker connection is down \(.+\)/);
      const sent = await sendNote(NOTES + 2);
      await waitFor(async () => /connecting again in \d+ ms/.test(corral!.stderr()), "a log line");
      await waitFor(
        async () => corral!.stderr().includes("the broker refused the vhost (it does not exist"),
        "the broker's reason in the log",
      );
      expect(corral!.stderr()).toMatch(/CONNECTION_FORCED - test drop/);
      expect(corral!.stderr()).not.toContain("recorder-password");

      await allow();
      await waitFor(async () => (await fetch(`${corral!.url}/readyz`)).status === 200, "200");
      await waitFor(async () => (await noteIds("bob", "incoming")).includes(sent), "the Note");
      const after = await noteIds("bob", "incoming");
      expect(after.length).toBe(before.length + 1);
    } finally {
      await rabbit("delete_user", user).catch(() => {});
    }
  });
});

async function rabbit(...args: string[]): Promise<string> {
  const { rabbitmqctl } = await checkPrerequisites(thisMachine());
  const { stdout } = await execFileAsync(rabbitmqctl, ["--quiet", ...args], { timeout: 60_000 });
  return stdout;
}

async function startCorral(amqpUrl = cg.amqpUrl): Promise<CorralProcess> {
  const started = await startCorralProcess({
    database,
    allowPrivateAddresses: false,
    args: ["--upstream", cg.origin, "--upstream-amqp", amqpUrl],
  });
  await waitFor(
    async () => (await fetch(`${started.url}/readyz`)).status === 200,
    "Corral ready (broker connected)",
  );
  return started;
}

async function createActor(account: string, handle: string): Promise<{ id: string }> {
  return cg.createActor(tokens[account]!, handle);
}

/** ana → ben: a Create of a Note, through cattle_grid's own trigger; its activity id. */
async function sendNote(i: number): Promise<string> {
  const id = `${ana.id}/activities/${randomUUID()}`;
  const data = {
    "@context": AS,
    id,
    type: "Create",
    actor: ana.id,
    to: [ben.id],
    object: {
      id: `${ana.id}/notes/${randomUUID()}`,
      type: "Note",
      attributedTo: ana.id,
      to: [ben.id],
      content: `note number ${i} ${randomUUID()}`,
    },
  };
  const response = await fetch(`${cg.origin}/fe/actor/trigger/send_message`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${tokens.alice}` },
    body: JSON.stringify({ actor: ana.id, data }),
  });
  expect(response.status).toBe(202);
  return id;
}

async function history(account: string, stream: string, query: string): Promise<Entry[]> {
  const response = await fetch(`${corral!.url}/fe/account/events/${stream}?${query}`, {
    headers: { Authorization: `Bearer ${tokens[account]}` },
  });
  if (response.status !== 200)
    throw new Error(`events/${stream}?${query}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { events: Entry[] }).events;
}

/** The ids of the Creates in one of the account's streams, as recorded. */
async function noteIds(account: string, stream: string): Promise<string[]> {
  const events = await history(account, stream, "limit=500&type=Create");
  return events.map((e) => e.event.data.raw.id as string);
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`waited ${ms} ms for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
