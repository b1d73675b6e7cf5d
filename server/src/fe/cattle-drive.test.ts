import { afterEach, describe, expect, it } from "vitest";
import { createRabbitVhost, type RabbitVhost } from "../../../test-peers/rabbitmq.ts";
import { addAccount, fe, signIn, startTestServer, type TestServer } from "../../test/server.ts";

let server: TestServer;
let vhost: RabbitVhost | undefined;
afterEach(async () => {
  await server?.close();
  await vhost?.delete();
  vhost = undefined;
});

describe("GET /fe/account/cattle-drive", () => {
  it("names the WebSocket endpoint on the server's own port, and no AMQP when none is configured", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const response = await fe(server, token, "/account/cattle-drive");
    expect(response.status).toBe(200);
    const port = new URL(server.url).port;
    expect(await response.json()).toEqual({
      websocket: { url: `ws://127.0.0.1:${port}/ws` },
      amqp: null,
      connections: [],
    });
  });

  it("names the AMQP broker without its user and password, and says AMQP clients are not listed", async () => {
    vhost = await createRabbitVhost();
    server = await startTestServer({ amqp: vhost.url("guest", "guest") });
    await addAccount(server, "alice");
    const token = await signIn(server, "alice");
    const info = await (await fe(server, token, "/account/cattle-drive")).json();
    expect(info.amqp).toEqual({
      url: `amqp://127.0.0.1:5672/${vhost.name}`,
      exchange: "amq.topic",
    });
    expect(info.amqpConnectionsKnown).toBe(false);
    expect(JSON.stringify(info)).not.toContain("guest");
  });

  it("needs a signed-in account", async () => {
    server = await startTestServer();
    const response = await fe(server, null, "/account/cattle-drive");
    expect(response.status).toBe(401);
  });
});
