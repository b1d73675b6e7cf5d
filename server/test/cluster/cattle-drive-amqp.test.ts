import { connect, type Channel, type ChannelModel } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRabbitVhost, type RabbitVhost } from "../../../test-peers/rabbitmq.ts";
import { createAccount } from "../../src/accounts/index.ts";
import type { Db } from "../../src/db/db.ts";
import { openDatabase } from "../../src/db/open.ts";
import { startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";
import { createTestDatabase, type TestDatabase } from "../db/postgres-test-database.ts";

// Cattle Drive over AMQP with web×2 + worker on one PostgreSQL, all given --amqp: every request
// is answered once (one shared queue), every event is published once (by the process that
// stored it), whichever process holds the stream, with its trigger's correlation id.

// One origin for all three, as behind a load balancer (no request reaches it here: deliveries
// between the account's own actors stay inside the server).
const BASE = "http://drive.test";
let database: TestDatabase;
let db: Db;
let vhost: RabbitVhost;
let processes: CorralProcess[] = [];
let amqp: ChannelModel;
let channel: Channel;
const received: { key: string; correlationId: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  [database, vhost] = await Promise.all([createTestDatabase(), createRabbitVhost()]);
  ({ db } = await openDatabase(database.url, { pool: 2 }));
  const created = await createAccount(db, {
    name: "alice",
    password: "alice-password",
    admin: true,
  });
  if (!created.ok) throw new Error(created.error);
  const common = [
    ...["--database", database.url, "--base-url", BASE],
    ...["--amqp", vhost.url("guest", "guest")],
  ];
  processes = await Promise.all([
    startCorral({ port: 0, args: [...common, "--role", "web"] }),
    startCorral({ port: 0, args: [...common, "--role", "web"] }),
    startCorral({ port: 0, args: [...common, "--role", "worker"] }),
  ]);
  // A client of alice's, as almabtrieb makes one: its own queue bound to her keys.
  amqp = await connect(vhost.url("guest", "guest"));
  channel = await amqp.createChannel();
  const { queue } = await channel.assertQueue("", { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, "amq.topic", "receive.alice.#");
  await channel.bindQueue(queue, "amq.topic", "error.alice");
  await channel.consume(
    queue,
    (msg) => {
      if (!msg) return;
      received.push({
        key: msg.fields.routingKey,
        correlationId: msg.properties.correlationId,
        body: JSON.parse(msg.content.toString()),
      });
    },
    { noAck: true },
  );
}, 120_000);

afterAll(async () => {
  await amqp?.close().catch(() => {});
  await Promise.all(processes.map((p) => p.stop()));
  await db?.close();
  await database?.drop();
  await vhost?.delete();
}, 60_000);

function send(key: string, body: unknown, correlationId: string) {
  channel.publish("amq.topic", key, Buffer.from(JSON.stringify(body)), { correlationId });
}

async function settle(count: () => number, expected: number, what: string) {
  const deadline = Date.now() + 30_000;
  while (count() < expected) {
    if (Date.now() > deadline)
      throw new Error(`waited 30 s for ${what}: ${count()} of ${expected}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  // Then a while longer: a second copy would arrive about as soon as the first.
  await new Promise((done) => setTimeout(done, 1_500));
}

describe("Cattle Drive over AMQP on web×2 + worker", () => {
  it("answers each request once, and publishes each event once", async () => {
    for (let i = 0; i < 20; i++) send("send.alice.request.info", {}, `info-${i}`);
    await settle(
      () => received.filter((m) => m.key === "receive.alice.response.info").length,
      20,
      "20 info answers",
    );
    const answers = received.filter((m) => m.key === "receive.alice.response.info");
    expect(answers.map((m) => m.correlationId).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `info-${i}`).sort(),
    );

    const base = BASE;
    const create = (handle: string) =>
      send(
        "send.alice.request.create_actor",
        { base_url: base, preferred_username: handle },
        `create-${handle}`,
      );
    create("one");
    create("two");
    await settle(
      () => received.filter((m) => m.key === "receive.alice.response.create_actor").length,
      2,
      "two actors",
    );
    const id = (handle: string) =>
      received.find((m) => m.correlationId === `create-${handle}`)!.body.id as string;
    const [one, two] = [id("one"), id("two")];
    const activity = {
      "@context": "https://www.w3.org/ns/activitystreams",
      type: "Create",
      id: `${one}/create/1`,
      actor: one,
      to: [two],
      object: { type: "Note", id: `${one}/note/1`, attributedTo: one, to: [two], content: "moo" },
    };
    send("send.alice.trigger.send_message", { actor: one, data: activity }, "send-1");
    const ofActivity = (key: string) =>
      received.filter(
        (m) => m.key === key && (m.body.data as { raw?: { id?: string } })?.raw?.id === activity.id,
      );
    await settle(
      () =>
        ofActivity("receive.alice.outgoing.Create").length +
        ofActivity("receive.alice.incoming.Create").length,
      2,
      "the outgoing and the incoming Create",
    );
    expect(ofActivity("receive.alice.outgoing.Create")).toHaveLength(1);
    expect(ofActivity("receive.alice.incoming.Create")).toHaveLength(1);
    expect(received.filter((m) => m.key === "error.alice")).toEqual([]);
  }, 120_000);

  it("gives each trigger's outgoing event the trigger's correlation id, whichever process accepted it", async () => {
    // Web processes run no triggers: the worker stores every outgoing event, while the shared
    // queue hands the triggers to all three in turn (most are accepted by a web process).
    const one = received.find((m) => m.correlationId === "create-one")!.body.id as string;
    const two = received.find((m) => m.correlationId === "create-two")!.body.id as string;
    const ids = Array.from({ length: 12 }, (_, i) => `${one}/create/many-${i}`);
    ids.forEach((id, i) =>
      send(
        "send.alice.trigger.send_message",
        {
          actor: one,
          data: {
            "@context": "https://www.w3.org/ns/activitystreams",
            type: "Create",
            id,
            actor: one,
            to: [two],
            object: { type: "Note", attributedTo: one, to: [two], content: `moo ${i}` },
          },
        },
        `many-${i}`,
      ),
    );
    const outgoing = () =>
      received.filter(
        (m) =>
          m.key === "receive.alice.outgoing.Create" &&
          ids.includes((m.body.data as { raw: { id: string } }).raw.id),
      );
    await settle(() => outgoing().length, ids.length, "the outgoing Creates");
    const byActivity = Object.fromEntries(
      outgoing().map((m) => [(m.body.data as { raw: { id: string } }).raw.id, m.correlationId]),
    );
    expect(byActivity).toEqual(Object.fromEntries(ids.map((id, i) => [id, `many-${i}`])));
  }, 120_000);
});
