import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findProgram } from "../../../test-peers/programs.ts";
import { addAccount, startTestServer, type TestServer } from "../server.ts";
import { freePort } from "../../../test-kit/free-port.ts";

// Mosquitto 2.0 (Debian's), a broker that speaks MQTT 5, as the reference for Corral's own endpoint
// (docs/adr/0011): a Mosquitto of the test's own with the same accounts and the same confinement
// (an ACL: publish under send/USER/, read receive/USER/… and error/USER), and one plain MQTT 5
// client (the `mqtt` package) doing the same things to both. Mosquitto listens on plain TCP: the
// build here cannot open its WebSocket listener ("Unable to start any listening sockets").

let mosquitto: { url: string; process: ChildProcess; dir: string } | undefined;
let corral: TestServer | undefined;
const clients: MqttClient[] = [];

beforeAll(async () => {
  const program = findProgram("mosquitto", ["/usr/sbin", "/usr/bin"]);
  const passwd = findProgram("mosquitto_passwd", ["/usr/bin", "/usr/sbin"]);
  if (!program || !passwd)
    throw new Error("the Mosquitto reference test needs Mosquitto 2: apt-get install -y mosquitto");
  const dir = mkdtempSync(join(tmpdir(), "mosquitto-"));
  // Started as root, Mosquitto reads its files as the user "mosquitto".
  chmodSync(dir, 0o755);
  for (const name of ["alice", "bob"]) {
    const args = ["-b", join(dir, "passwd"), name, `${name}-password`];
    if (name === "alice") args.unshift("-c");
    const made = spawnSync(passwd, args);
    if (made.status !== 0) throw new Error(`mosquitto_passwd: ${made.stderr}`);
  }
  writeFileSync(
    join(dir, "acl"),
    ["pattern write send/%u/#", "pattern read receive/%u/#", "pattern read error/%u", ""].join(
      "\n",
    ),
  );
  const port = await freePort();
  writeFileSync(
    join(dir, "mosquitto.conf"),
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous false",
      `password_file ${join(dir, "passwd")}`,
      `acl_file ${join(dir, "acl")}`,
      "persistence false",
      "",
    ].join("\n"),
  );
  for (const file of ["passwd", "acl", "mosquitto.conf"]) chmodSync(join(dir, file), 0o644);
  const child = spawn(program, ["-c", join(dir, "mosquitto.conf")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let said = "";
  child.stderr!.on("data", (chunk: Buffer) => (said += chunk.toString()));
  mosquitto = { url: `mqtt://127.0.0.1:${port}`, process: child, dir };
  corral = await startTestServer();
  await addAccount(corral, "alice");
  await addAccount(corral, "bob");
  // Mosquitto is ready once it takes a connection.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ok = await connected(connect("mosquitto", "alice")).then(
      () => true,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`Mosquitto did not start within 15 s: ${said}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  await corral?.close();
  if (mosquitto) {
    mosquitto.process.kill("SIGTERM");
    rmSync(mosquitto.dir, { recursive: true, force: true });
  }
});

type Target = "mosquitto" | "corral";
function connect(target: Target, name: string, password = `${name}-password`) {
  const url = target === "mosquitto" ? mosquitto!.url : `${corral!.url.replace("http", "ws")}/ws`;
  const client = mqtt.connect(url, {
    protocolVersion: 5,
    username: name,
    password,
    reconnectPeriod: 0,
  });
  clients.push(client);
  return client;
}

/** The CONNACK's reason code (0: connected). */
function connected(client: MqttClient): Promise<number> {
  return new Promise((resolve, reject) => {
    client.once("connect", () => resolve(0));
    client.on("packetreceive", (packet) => {
      if (packet.cmd === "connack" && packet.reasonCode) resolve(packet.reasonCode);
    });
    client.once("error", (error) => {
      const code = (error as { code?: number }).code;
      if (typeof code === "number") resolve(code);
      else reject(error);
    });
  });
}

function suback(client: MqttClient, topics: string[]): Promise<number[]> {
  return new Promise((resolve) => {
    const onPacket = (packet: mqtt.Packet) => {
      if (packet.cmd !== "suback") return;
      client.off("packetreceive", onPacket);
      resolve(packet.granted as number[]);
    };
    client.on("packetreceive", onPacket);
    client.subscribe(topics, () => {});
  });
}

function puback(client: MqttClient, topic: string): Promise<number> {
  return client.publishAsync(topic, "{}", { qos: 1 }).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
}

// Where the two differ, Corral says more: Mosquitto 2.0.11 answers a wrong password with 0x87 (not
// authorized) where MQTT 5 has 0x86 (bad user name or password) for it, and grants a subscription
// its ACL will never deliver to (0) where Corral refuses it (0x87, with a reason string).
const expected = {
  mosquitto: { wrongPassword: 0x87, otherSubscription: 0 },
  corral: { wrongPassword: 0x86, otherSubscription: 0x87 },
};

describe.each(["mosquitto", "corral"] as const)("a plain MQTT 5 client against %s", (target) => {
  it("is refused for a wrong password", async () => {
    expect(await connected(connect(target, "alice", "wrong-password"))).toBe(
      expected[target].wrongPassword,
    );
  });

  it("is granted its own topics, and answered for another account's", async () => {
    const client = connect(target, "alice");
    expect(await connected(client)).toBe(0);
    expect(await suback(client, ["receive/alice/#", "error/alice", "receive/bob/#"])).toEqual([
      0,
      0,
      expected[target].otherSubscription,
    ]);
  });

  it("publishes under send/NAME/ and is refused another account's with 0x87", async () => {
    const client = connect(target, "alice");
    expect(await connected(client)).toBe(0);
    expect(await puback(client, "send/alice/request/info")).toBe(0);
    expect(await puback(client, "send/bob/request/info")).toBe(0x87);
  });
});
