import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { announceTokensEnded, setPassword } from "../accounts/index.ts";
import * as mqttPacket from "mqtt-packet";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";

// A plain MQTT 5 client (the `mqtt` package), since almabtrieb swallows why a connect failed.

let server: TestServer;
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  await server?.close();
});

function wsUrl() {
  return `${server.url.replace("http", "ws")}/ws`;
}

function connect(name: string, password = `${name}-password`, options: IClientOptions = {}) {
  const client = mqtt.connect(wsUrl(), {
    protocolVersion: 5,
    username: name,
    password,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    ...options,
  });
  clients.push(client);
  return client;
}

/** Connects and resolves with the CONNACK, or rejects with its reason code and reason string. */
function connected(client: MqttClient): Promise<mqtt.IConnackPacket> {
  return new Promise((resolve, reject) => {
    client.once("connect", resolve);
    client.on("packetreceive", (packet) => {
      if (packet.cmd === "connack" && packet.reasonCode)
        reject(
          Object.assign(new Error(packet.properties?.reasonString ?? "(no reason string)"), {
            code: packet.reasonCode,
          }),
        );
    });
    client.once("error", reject);
  });
}

/** The SUBACK's reason codes and reason string (the client rejects a refusal without it). */
function subscribed(client: MqttClient, topics: string[]) {
  return new Promise<{ granted: number[]; reason?: string }>((resolve) => {
    const onPacket = (packet: mqtt.Packet) => {
      if (packet.cmd !== "suback") return;
      client.off("packetreceive", onPacket);
      resolve({
        granted: packet.granted as number[],
        reason: packet.properties?.reasonString,
      });
    };
    client.on("packetreceive", onPacket);
    client.subscribe(topics, () => {});
  });
}

interface Received {
  topic: string;
  body: Record<string, unknown>;
  correlation: string | undefined;
}

function collect(client: MqttClient): Received[] {
  const received: Received[] = [];
  client.on("message", (topic, payload, packet) => {
    received.push({
      topic,
      body: JSON.parse(payload.toString()),
      correlation: packet.properties?.correlationData?.toString(),
    });
  });
  return received;
}

async function waitFor<T>(find: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

function publish(client: MqttClient, topic: string, body: unknown, correlation: string) {
  return client.publishAsync(topic, JSON.stringify(body), {
    qos: 1,
    properties: { correlationData: Buffer.from(correlation) },
  });
}

describe("Cattle Drive over MQTT 5 over WebSocket at /ws", () => {
  it("refuses a wrong password with words, in CONNACK's reason string", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const error = await connected(connect("alice", "wrong-password")).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/wrong name or password/);
    expect((error as { code?: number }).code).toBe(0x86);
  });

  it("throttles failed logins as sign-ins are", async () => {
    server = await startTestServer({
      throttle: { windowMs: 60_000, maxPerName: 2, maxPerAddress: 100 },
    });
    await addAccount(server, "alice");
    for (let i = 0; i < 2; i++)
      await connected(connect("alice", "wrong-password")).catch(() => undefined);
    const error = (await connected(connect("alice")).catch((e: Error) => e)) as Error & {
      code?: number;
    };
    expect(error.message).toMatch(/too many failed logins; try again in \d+ s/);
    expect(error.code).toBe(0x9f);
  });

  it("answers request/info with the request's CorrelationData", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const client = connect("alice");
    await connected(client);
    const received = collect(client);
    await client.subscribeAsync(["receive/alice/#", "error/alice"]);
    await publish(client, "send/alice/request/info", {}, "corr-info-1");
    const answer = await waitFor(
      () => received.find((m) => m.topic === "receive/alice/response/info"),
      "the info response",
    );
    expect(answer.correlation).toBe("corr-info-1");
    expect(answer.body).toMatchObject({
      accountName: "alice",
      protocol: { name: "CattleDrive" },
      backend: { name: "corral" },
    });
  });

  it("refuses another account's topics: a subscription with 0x87 and words, a publish with an error on the own error topic", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    await addAccount(server, "bob");
    const client = connect("alice");
    await connected(client);
    const received = collect(client);
    const suback = await subscribed(client, ["receive/bob/#", "error/alice", "receive/+/#"]);
    expect(suback.granted).toEqual([0x87, 0, 0x87]);
    expect(suback.reason).toBe(
      "alice may subscribe only to receive/alice/… and error/alice, not to receive/bob/#, receive/+/#",
    );
    const puback = await publish(client, "send/bob/request/info", {}, "corr-other").catch(
      (e: Error & { code?: number }) => e,
    );
    expect((puback as { code?: number }).code).toBe(0x87);
    const error = await waitFor(
      () => received.find((m) => m.topic === "error/alice"),
      "the error for publishing on bob's topic",
    );
    expect(error.correlation).toBe("corr-other");
    expect(error.body.message).toEqual([
      "alice may publish only on send/alice/…, not on send/bob/request/info",
    ]);
  });

  it("answers an unknown method on error/NAME with the request's correlation id and words", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const actor = await addActor(server, token, "al");
    const client = connect("alice");
    await connected(client);
    const received = collect(client);
    await client.subscribeAsync(["receive/alice/#", "error/alice"]);
    await publish(client, "send/alice/trigger/moo", { actor: actor.id }, "corr-moo");
    const error = await waitFor(
      () => received.find((m) => m.topic === "error/alice"),
      "the unknown method's error",
    );
    expect(error.correlation).toBe("corr-moo");
    expect(error.body).toMatchObject({
      message: [expect.stringMatching(/^unknown method moo: this server's are send_message, /)],
      routing_key: "send.alice.trigger.moo",
      original_message_body: JSON.stringify({ actor: actor.id }),
    });
  });

  it("sends a trigger's outgoing event with the trigger's correlation id, and every event with one", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const actor = await addActor(server, token, "al");
    const other = await addActor(server, token, "bo");
    const client = connect("alice");
    await connected(client);
    const received = collect(client);
    await client.subscribeAsync(["receive/alice/#", "error/alice"]);
    const note = {
      "@context": "https://www.w3.org/ns/activitystreams",
      type: "Create",
      actor: actor.id,
      id: `${actor.id}/create/1`,
      to: [other.id],
      object: {
        type: "Note",
        id: `${actor.id}/note/1`,
        attributedTo: actor.id,
        to: [other.id],
        content: "hi",
      },
    };
    await publish(
      client,
      "send/alice/trigger/send_message",
      { actor: actor.id, data: note },
      "corr-send",
    );
    const outgoing = await waitFor(
      () => received.find((m) => m.topic === "receive/alice/outgoing/Create"),
      "the outgoing Create",
    );
    expect(outgoing.correlation).toBe("corr-send");
    expect(outgoing.body).toMatchObject({
      actor: actor.id,
      event_type: "outgoing",
      data: { raw: note },
    });
    // Delivered to the account's other actor: an incoming event, caused by no request, still with an id.
    const incoming = await waitFor(
      () => received.find((m) => m.topic === "receive/alice/incoming/Create"),
      "the incoming Create",
    );
    expect(incoming.correlation).toMatch(/\S/);
  });

  it("refuses a client past the account's connection bound with words", async () => {
    server = await startTestServer({ mqttLimits: { maxConnectionsPerAccount: 1 } });
    await addAccount(server, "alice");
    await connected(connect("alice"));
    const error = (await connected(connect("alice")).catch((e: Error) => e)) as Error & {
      code?: number;
    };
    expect(error.code).toBe(0x97);
    expect(error.message).toMatch(/alice has 1 connections open, the most allowed/);
  });

  it("answers requests over the account's rate with 0x97 and words on error/NAME", async () => {
    server = await startTestServer({ mqttLimits: { requestsPerSecond: 1, requestBurst: 2 } });
    await addAccount(server, "alice");
    const client = connect("alice");
    await connected(client);
    const received = collect(client);
    await client.subscribeAsync(["receive/alice/#", "error/alice"]);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push(
        await publish(client, "send/alice/request/info", {}, `corr-${i}`).then(
          () => 0,
          (e: { code?: number }) => e.code ?? -1,
        ),
      );
    expect(codes).toEqual([0, 0, 0x97]);
    const error = await waitFor(
      () => received.find((m) => m.topic === "error/alice"),
      "the rate refusal",
    );
    expect(error.correlation).toBe("corr-2");
    expect(error.body.message).toEqual(["too many requests: at most 1 a second per account"]);
  });

  it("closes the connection of a packet over the size bound", async () => {
    server = await startTestServer({ mqttLimits: { maxPacketBytes: 1024 } });
    await addAccount(server, "alice");
    const client = connect("alice");
    await connected(client);
    const closed = new Promise<void>((done) => client.once("close", () => done()));
    client.publish("send/alice/request/info", "x".repeat(4096), {
      properties: { correlationData: Buffer.from("big") },
    });
    await closed;
  });

  it("disconnects a client silent for 1.5 times its keep-alive with 0x8D", async () => {
    server = await startTestServer({ mqttLimits: { maxKeepAliveS: 1 } });
    await addAccount(server, "alice");
    // keepalive 0 asks for none, and the client sends no pings: the server grants 1 s.
    const client = connect("alice", undefined, { keepalive: 0 });
    const connack = await connected(client);
    expect(connack.properties?.serverKeepAlive).toBe(1);
    const reason = await new Promise<number | undefined>((done) =>
      client.on("packetreceive", (packet) => {
        if (packet.cmd === "disconnect") done(packet.reasonCode);
      }),
    );
    expect(reason).toBe(0x8d);
  });

  it("disconnects a client with 0x87 and words when its account's password changes", async () => {
    server = await startTestServer();
    const alice = await addAccount(server, "alice");
    const client = connect("alice");
    await connected(client);
    const reason = new Promise<{ code?: number; text?: string }>((done) =>
      client.on("packetreceive", (packet) => {
        if (packet.cmd === "disconnect")
          done({ code: packet.reasonCode, text: packet.properties?.reasonString });
      }),
    );
    // As `corral account password` does: a new hash, then the announcement.
    await setPassword(server.services.db, "alice", "a-new-password");
    await announceTokensEnded(server.services.bus, alice.id);
    expect(await reason).toEqual({ code: 0x87, text: "the password of alice changed" });
  });

  it("lists a client as connected only while it is: one gone during its login check is not listed", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    // CONNECT, then gone before the password is checked.
    const raw = new WebSocket(wsUrl(), "mqtt");
    await new Promise((done) => raw.addEventListener("open", done));
    raw.send(
      mqttPacket.generate(
        {
          cmd: "connect",
          protocolVersion: 5,
          clientId: "gone",
          username: "alice",
          password: Buffer.from("alice-password"),
          keepalive: 60,
          clean: true,
        },
        { protocolVersion: 5 },
      ),
    );
    raw.close();
    // Its check started first and ends before this one's.
    await connected(connect("alice", undefined, { clientId: "stays" }));
    const info = await (await fe(server, token, "/account/cattle-drive")).json();
    expect(info.connections).toEqual([
      { transport: "websocket", client: "stays", since: expect.any(String), address: "127.0.0.1" },
    ]);
  });
});
