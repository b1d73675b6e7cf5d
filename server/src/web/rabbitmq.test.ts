import { afterEach, describe, expect, it } from "vitest";
import { createRabbitVhost, type RabbitVhost } from "../../../test-peers/rabbitmq.ts";
import { addAccount, startTestServer, type TestServer } from "../../test/server.ts";

// RabbitMQ's HTTP auth backend asks these as cattle_grid's answer them: form-encoded POSTs,
// `allow` or `deny` in plain text.

let server: TestServer;
let vhost: RabbitVhost | undefined;
afterEach(async () => {
  await server?.close();
  await vhost?.delete();
  vhost = undefined;
});

async function ask(path: string, form: Record<string, string>) {
  const response = await fetch(`${server.url}/rabbitmq/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  return { status: response.status, text: await response.text() };
}

describe("/rabbitmq/* for RabbitMQ's HTTP auth backend", () => {
  it("allows an account's name and password, and denies a wrong password", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    expect(await ask("user", { username: "alice", password: "alice-password" })).toEqual({
      status: 200,
      text: "allow",
    });
    expect((await ask("user", { username: "alice", password: "wrong" })).text).toBe("deny");
    expect((await ask("user", { username: "nobody", password: "x" })).text).toBe("deny");
  });

  it("denies even the right password after too many failures, as sign-ins are throttled", async () => {
    server = await startTestServer({
      throttle: { windowMs: 60_000, maxPerName: 2, maxPerAddress: 100 },
    });
    await addAccount(server, "alice");
    for (let i = 0; i < 2; i++) await ask("user", { username: "alice", password: "wrong" });
    expect((await ask("user", { username: "alice", password: "alice-password" })).text).toBe(
      "deny",
    );
  });

  it("allows only the vhost --amqp names", async () => {
    vhost = await createRabbitVhost();
    server = await startTestServer({ amqp: vhost.url("guest", "guest") });
    expect((await ask("vhost", { username: "alice", vhost: vhost.name, ip: "::1" })).text).toBe(
      "allow",
    );
    expect((await ask("vhost", { username: "alice", vhost: "/", ip: "::1" })).text).toBe("deny");
  });

  it("allows only the account's own keys on amq.topic, as cattle_grid's rule", async () => {
    server = await startTestServer();
    const topic = (name: string, routing_key: string, permission = "write") =>
      ask("topic", {
        username: "alice",
        vhost: "/",
        resource: "topic",
        name,
        permission,
        routing_key,
      }).then((r) => r.text);
    expect(await topic("amq.topic", "send.alice.request.info")).toBe("allow");
    expect(await topic("amq.topic", "receive.alice.#", "read")).toBe("allow");
    expect(await topic("amq.topic", "error.alice", "read")).toBe("allow");
    expect(await topic("amq.topic", "send.bob.request.info")).toBe("deny");
    expect(await topic("amq.topic", "receive.bob.#", "read")).toBe("deny");
    expect(await topic("amq.topic", "receive.#", "read")).toBe("deny");
    expect(await topic("amq.topic", "error.alice_x", "read")).toBe("deny");
    expect(await topic("other", "send.alice.request.info")).toBe("deny");
    expect(
      (await ask("resource", { username: "alice", vhost: "/", resource: "queue", name: "q" })).text,
    ).toBe("allow");
  });
});
