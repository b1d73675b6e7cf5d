import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDriveCheck } from "../../../test-peers/almabtrieb.ts";
import { freshDatabaseUrl } from "../fresh.ts";
import { corral, startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";

// almabtrieb 0.3.0, cattle_grid's own client, against a `corral serve` process over MQTT 5 over
// WebSocket at /ws, with nothing else running: the same script as against the real cattle_grid
// (almabtrieb-amqp.test.ts) checks info, create_actor, fetch, send_message between two accounts,
// the outgoing event, an error with its correlation id and another account's topic refused.

let server: CorralProcess | undefined;

beforeAll(async () => {
  const database = freshDatabaseUrl();
  corral(database, "account", "new", "alice", "alice-password", "--admin");
  corral(database, "account", "new", "bob", "bob-password", "--admin");
  server = await startCorral({ database });
}, 120_000);
afterAll(() => server?.kill());

describe("almabtrieb over WebSocket against Corral", () => {
  it("passes the Cattle Drive check", async () => {
    const ws = server!.url.replace(/^http/, "ws");
    const run = await runDriveCheck({
      alice: `${ws.replace("//", "//alice:alice-password@")}/ws`,
      bob: `${ws.replace("//", "//bob:bob-password@")}/ws`,
      baseUrl: server!.url,
    });
    expect(run.output).toMatch(/^ALL OK$/m);
    expect(run.ok, run.output).toBe(true);
  }, 600_000);
});
