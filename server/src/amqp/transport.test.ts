import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import amqp, { type ChannelModel } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPrerequisites, thisMachine } from "../../../test-peers/prerequisites.ts";
import { createRabbitVhost, type RabbitVhost } from "../../../test-peers/rabbitmq.ts";
import { startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";
import {
  addAccount,
  addActor,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";
import { parseMessage } from "../recording/recorder.ts";

// Cattle Drive over AMQP on the machine's RabbitMQ (a vhost of each test's own): the broker
// connection is broker/connection.ts's, so a drop shows in /readyz and the log and is retried
// with backoff; and incoming and outgoing events go to combined.NAME too, as cattle_grid's do.

const execFileAsync = promisify(execFile);
const cli = fileURLToPath(new URL("../cli.ts", import.meta.url));
const vhosts: RabbitVhost[] = [];
const users: string[] = [];

async function rabbit(...args: string[]): Promise<string> {
  const { rabbitmqctl } = await checkPrerequisites(thisMachine());
  const { stdout } = await execFileAsync(rabbitmqctl, ["--quiet", ...args], { timeout: 60_000 });
  return stdout;
}

async function freshVhost() {
  const vhost = await createRabbitVhost();
  vhosts.push(vhost);
  return vhost;
}

const sqliteFile = () => join(mkdtempSync(join(tmpdir(), "corral-amqp-")), "c.db");

async function waitFor(check: () => Promise<boolean> | boolean, what: string) {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited 60 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

afterAll(async () => {
  for (const user of users) await rabbit("delete_user", user).catch(() => {});
  for (const vhost of vhosts) await vhost.delete();
}, 120_000);

describe("the Cattle Drive broker connection", { timeout: 180_000 }, () => {
  it("that cannot be made at start ends `corral serve` with one line saying why", async () => {
    const vhost = await freshVhost();
    const result = spawnSync(
      process.execPath,
      [
        cli,
        "serve",
        ...["--port", "0", "--database", `sqlite:${sqliteFile()}`],
        ...["--amqp", vhost.url("guest", "not-the-password")],
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(
      new RegExp(
        `^corral: cannot connect to the AMQP broker amqp://guest:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/${vhost.name}: login refused \\(user or password\\): ACCESS_REFUSED`,
      ),
    );
    expect(result.stderr).not.toContain("not-the-password");
  });

  it("that drops says so in /readyz and the log, connects again with backoff, and answers again", async () => {
    const vhost = await freshVhost();
    // A RabbitMQ user of its own, so that only Corral's connection is dropped and refused.
    const user = `corral_${randomBytes(4).toString("hex")}`;
    users.push(user);
    await rabbit("add_user", user, "drive-password");
    const allow = () => rabbit("set_permissions", "-p", vhost.name, user, ".*", ".*", ".*");
    await allow();
    let corral: CorralProcess | undefined;
    let client: ChannelModel | undefined;
    try {
      corral = await startCorral({
        database: `sqlite:${sqliteFile()}`,
        allowPrivateAddresses: false,
        args: ["--amqp", vhost.url(user, "drive-password")],
      });
      const ready = () => fetch(`${corral!.url}/readyz`);
      expect((await ready()).status).toBe(200);

      await rabbit("clear_permissions", "-p", vhost.name, user);
      const connections = (await rabbit("list_connections", "pid", "user"))
        .split("\n")
        .filter((line) => line.trim().split(/\s+/)[1] === user)
        .map((line) => line.trim().split(/\s+/)[0]!);
      expect(connections.length).toBeGreaterThan(0);
      for (const pid of connections) await rabbit("close_connection", pid, "test drop");

      await waitFor(async () => (await ready()).status === 503, "/readyz 503");
      await waitFor(
        async () => /the broker refused the vhost/.test(await (await ready()).text()),
        "/readyz naming the refused vhost",
      );
      expect(await (await ready()).text()).toMatch(
        /^Cattle Drive over AMQP: the broker connection is down \(the broker refused the vhost [^)]*\)\); connecting again in \d+ ms\n$/,
      );
      await waitFor(
        () =>
          corral!
            .stderr()
            .split("\n")
            .filter((l) => /connecting again in/.test(l)).length >= 2,
        "two retries in the log",
      );
      const delays = [...corral.stderr().matchAll(/connecting again in (\d+) ms/g)].map((m) =>
        Number(m[1]),
      );
      expect(delays.slice(0, 3)).toEqual([...delays.slice(0, 3)].sort((a, b) => a - b));
      expect(delays[1]).toBeGreaterThan(delays[0]!);
      expect(corral.stderr()).toMatch(/CONNECTION_FORCED - test drop/);
      expect(corral.stderr()).not.toContain("drive-password");

      await allow();
      await waitFor(async () => (await ready()).status === 200, "/readyz 200 again");
      // And it serves again: `corral serve` made the account "operator" on its new database.
      client = await amqp.connect(vhost.url("guest", "guest"));
      const channel = await client.createChannel();
      const { queue } = await channel.assertQueue("", { exclusive: true });
      await channel.bindQueue(queue, "amq.topic", "receive.operator.response.info");
      const answers: string[] = [];
      await channel.consume(queue, (m) => m && answers.push(m.properties.correlationId), {
        noAck: true,
      });
      channel.publish("amq.topic", "send.operator.request.info", Buffer.from("{}"), {
        correlationId: "after-the-drop",
      });
      await waitFor(() => answers.length > 0, "the info answer");
      expect(answers).toEqual(["after-the-drop"]);
    } finally {
      await client?.close().catch(() => {});
      await corral?.kill();
    }
  });
});

describe("combined.NAME over AMQP", () => {
  let server: TestServer;
  let client: ChannelModel;
  beforeAll(async () => {
    const vhost = await freshVhost();
    server = await startTestServer({ amqp: vhost.url("guest", "guest") });
    client = await amqp.connect(vhost.url("guest", "guest"));
  }, 60_000);
  afterAll(async () => {
    await client?.close().catch(() => {});
    await server?.close();
  });

  it("carries each incoming and outgoing event with its history_id and its receive message's correlation id", async () => {
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const [one, two] = [await addActor(server, token, "one"), await addActor(server, token, "two")];
    const channel = await client.createChannel();
    const { queue } = await channel.assertQueue("", { exclusive: true });
    await channel.bindQueue(queue, "amq.topic", "combined.alice");
    await channel.bindQueue(queue, "amq.topic", "receive.alice.#");
    const got: { key: string; correlationId: string; content: Buffer }[] = [];
    await channel.consume(
      queue,
      (m) =>
        m &&
        got.push({
          key: m.fields.routingKey,
          correlationId: m.properties.correlationId,
          content: m.content,
        }),
      { noAck: true },
    );
    const activity = {
      "@context": "https://www.w3.org/ns/activitystreams",
      type: "Create",
      id: `${one.id}/create/1`,
      actor: one.id,
      to: [two.id],
      object: { type: "Note", id: `${one.id}/note/1`, attributedTo: one.id, to: [two.id] },
    };
    channel.publish(
      "amq.topic",
      "send.alice.trigger.send_message",
      Buffer.from(JSON.stringify({ actor: one.id, data: activity })),
      { correlationId: "send-1" },
    );
    const combined = () => got.filter((m) => m.key === "combined.alice");
    await expect.poll(() => combined().length, { timeout: 30_000 }).toBe(2);
    const bodies = combined().map((m) => JSON.parse(m.content.toString()));
    expect(bodies.map((b) => b.event_type).sort()).toEqual(["incoming", "outgoing"]);
    for (const [i, body] of bodies.entries()) {
      expect(body.data.raw.id).toBe(activity.id);
      expect(body.history_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
      // The receive.… message of the same event carries the same correlation id.
      const receive = got.find(
        (m) =>
          m.key === `receive.alice.${body.event_type}.Create` &&
          JSON.parse(m.content.toString()).data.raw.id === activity.id,
      )!;
      expect(combined()[i]!.correlationId).toBe(receive.correlationId);
      // What Corral's own recorder (proxy mode) takes from a cattle_grid, it takes from Corral.
      const parsed = parseMessage("combined.alice", combined()[i]!.content, undefined);
      expect(parsed).toMatchObject({
        account: "alice",
        stream: body.event_type,
        upstreamId: body.history_id,
      });
    }
    const outgoing = combined().find(
      (m) => JSON.parse(m.content.toString()).event_type === "outgoing",
    )!;
    expect(outgoing.correlationId).toBe("send-1");
  }, 60_000);
});
