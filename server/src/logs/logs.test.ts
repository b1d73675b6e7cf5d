import { describe, expect, it } from "vitest";
import { runCli, startCorral } from "../../../test-kit/corral-process.ts";
import { freePort } from "../../../test-kit/free-port.ts";
import { freshDatabaseUrl } from "../../test/fresh.ts";

// `corral serve` as an operator runs it: the whole output of a run is checked, not a logger.

const password = "log-test-password-7f3a";

async function until(check: () => boolean, what: () => string) {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("logs", () => {
  it("--log-format json: every line parses, one per request and per job, and no token or password appears", async () => {
    const database = freshDatabaseUrl();
    expect(
      runCli(["account", "new", "logger", password, "--admin", "--database", database]).code,
    ).toBe(0);
    const server = await startCorral({
      database,
      args: ["--log-format", "json", "--log-level", "debug"],
    });
    let token: string | undefined;
    try {
      const signin = await fetch(`${server.url}/fe/signin`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "logger", password }),
      });
      token = ((await signin.json()) as { token: string }).token;
      const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
      const create = async (handle: string) => {
        const created = await fetch(`${server.url}/fe/account/create`, {
          method: "POST",
          headers: auth,
          body: JSON.stringify({ baseUrl: server.url, handle }),
        });
        expect(created.status, await created.clone().text()).toBe(201);
        return ((await created.json()) as { id: string }).id;
      };
      const actor = await create("logger");
      const listener = await create("listener");
      // A secret in a query string stays out of the log too.
      await fetch(`${server.url}/fe/account/info?token=${token}`, { headers: auth });
      const trigger = await fetch(`${server.url}/fe/actor/trigger/send_message`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          actor,
          data: {
            type: "Create",
            id: `${actor}/n/1`,
            actor,
            to: [listener],
            object: { type: "Note" },
          },
        }),
      });
      expect(trigger.status, await trigger.clone().text()).toBe(202);
      await until(
        () => server.stderr().includes('"corral.delivery"'),
        () => `a delivery log line in ${server.stderr()}`,
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }

    const everything = server.stdout() + server.stderr();
    expect(token?.length).toBeGreaterThan(10);
    expect(everything).not.toContain(token!);
    expect(everything).not.toContain(password);
    const lines = server
      .stderr()
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const find = (logger: string, match: (p: Record<string, unknown>) => boolean) =>
      lines.find((l) => l.logger === logger && match(l.properties));
    expect(find("corral.http", (p) => p.path === "/fe/signin")).toMatchObject({
      level: "INFO",
      properties: { method: "POST", status: 200, client: "127.0.0.1" },
    });
    expect(find("corral.http", (p) => p.path === "/fe/account/info")?.properties.ms).toBeTypeOf(
      "number",
    );
    expect(find("corral.trigger", (p) => p.method === "send_message")).toBeDefined();
    // One line per delivered attempt is a debug line: a burst to 5,000 followers is 5,000 of them.
    expect(find("corral.delivery", (p) => p.outcome === "delivered")).toMatchObject({
      level: "DEBUG",
    });
  }, 60_000);

  it("--log-level warning leaves out the request lines; a bad --log-format is one line naming the choices", async () => {
    const database = freshDatabaseUrl();
    const server = await startCorral({
      database,
      allowPrivateAddresses: false,
      args: ["--log-level", "warning"],
    });
    try {
      expect((await fetch(`${server.url}/fe/account/info`)).status).toBe(401);
    } finally {
      await server.stop();
    }
    expect(server.stderr()).toBe("");

    const port = String(await freePort());
    const refused = runCli([
      ...["serve", "--host", "127.0.0.1", "--port", port, "--base-url", `http://127.0.0.1:${port}`],
      ...["--database", database, "--log-format", "xml"],
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^corral: invalid configuration: --log-format: must be text or json\n$/,
    );
  }, 60_000);
});
