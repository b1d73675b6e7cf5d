import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { createTestDatabase, type TestDatabase } from "../../test/db/postgres-test-database.ts";

const servers: TestServer[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

async function start(input: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(input);
  servers.push(server);
  return server;
}

describe("health endpoints", () => {
  it("answers /healthz and /readyz with 200 without a token", async () => {
    const server = await start();
    const health = await fetch(`${server.url}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, "ok\n"]);
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, "ready\n"]);
  });

  it("answers /readyz 503 with the reason while a migration is missing", async () => {
    const server = await start();
    await server.services.db.run(
      `DELETE FROM schema_migrations WHERE id = (SELECT MAX(id) FROM schema_migrations)`,
    );
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([503, "migrations are not done\n"]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("as a worker answers only /healthz", async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const worker = await start({ database: database.url, role: "worker" });
    expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
    for (const path of ["/readyz", "/fe/signin", "/.well-known/webfinger?resource=acct:a@b", "/"]) {
      const response = await fetch(`${worker.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({
        detail: "This process is a worker: it answers only /healthz",
      });
    }
  });
});
