import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { runDriveCheck } from "../../../test-peers/almabtrieb.ts";
import { startCattleGrid, type CattleGrid } from "../../../test-peers/cattle-grid.ts";
import { createRabbitVhost, type RabbitVhost } from "../../../test-peers/rabbitmq.ts";
import { addAccount, startTestServer, type TestServer } from "../server.ts";

// almabtrieb 0.3.0, cattle_grid's own client, over AMQP through the machine's RabbitMQ: the same
// script (test-peers/almabtrieb/drive_check.py) against the real cattle_grid 0.5.22 and against
// Corral with --amqp, each on a vhost of its own. RabbitMQ checks the clients here with users set
// by rabbitmqctl under cattle_grid's topic rule; that Corral answers RabbitMQ's HTTP auth backend
// by the same rule is web/rabbitmq.test.ts. Needs RabbitMQ, PostgreSQL, nginx and python3.11
// (test-peers/prerequisites.ts names what to install when one is missing).

const names = () => {
  const tag = randomBytes(4).toString("hex");
  return { alice: `alice_${tag}`, bob: `bob_${tag}` };
};

describe("almabtrieb over AMQP", () => {
  let cattleGrid: CattleGrid | undefined;
  let corral: TestServer | undefined;
  const vhosts: RabbitVhost[] = [];
  afterAll(async () => {
    await corral?.close();
    await cattleGrid?.stop();
    for (const vhost of vhosts) await vhost.delete();
  }, 120_000);

  it("passes the Cattle Drive check against the real cattle_grid 0.5.22", async () => {
    cattleGrid = await startCattleGrid();
    const { alice, bob } = names();
    await Promise.all([
      cattleGrid.createAccount(alice, `${alice}-password`),
      cattleGrid.createAccount(bob, `${bob}-password`),
    ]);
    // cattle_grid's vhost, with the two accounts as RabbitMQ users.
    const vhost = await createRabbitVhost({ existing: cattleGrid.vhost });
    vhosts.push(vhost);
    await vhost.addClient(alice, `${alice}-password`);
    await vhost.addClient(bob, `${bob}-password`);
    const run = await runDriveCheck({
      alice: vhost.url(alice, `${alice}-password`),
      bob: vhost.url(bob, `${bob}-password`),
      baseUrl: cattleGrid.origin,
    });
    expect(run.ok, `${run.output}\n--- cattle_grid:\n${cattleGrid.output().slice(-3000)}`).toBe(
      true,
    );
  }, 600_000);

  it("passes the same check against Corral with --amqp", async () => {
    const vhost = await createRabbitVhost();
    vhosts.push(vhost);
    corral = await startTestServer({ amqp: vhost.url("guest", "guest") });
    const { alice, bob } = names();
    for (const name of [alice, bob]) {
      await addAccount(corral, name);
      await vhost.addClient(name, `${name}-password`);
    }
    const run = await runDriveCheck({
      alice: vhost.url(alice, `${alice}-password`),
      bob: vhost.url(bob, `${bob}-password`),
      baseUrl: corral.url,
    });
    expect(run.ok, run.output).toBe(true);
  }, 600_000);
});
