// Issue 33 item 10 (docs/unserved-actors.md): a database whose actors were made on one base URL,
// served on another (`--port 4300` on a database made at 3000), says so once at start, naming
// them and the flag that serves them, and /fe/account/info says it beside those actors.

import { afterEach, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "./fresh.ts";
import { corral, startCorral, type CorralProcess } from "../../test-kit/corral-process.ts";
import { signIn } from "../../test-kit/sign-in.ts";

let running: CorralProcess | undefined;
afterEach(async () => {
  await running?.kill();
  running = undefined;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const info = async (url: string, token: string): Promise<any> =>
  (await fetch(`${url}/fe/account/info`, { headers: { Authorization: `Bearer ${token}` } })).json();

describe("actors on a base URL this server does not serve", () => {
  it("are named at start with --base-url, and beside them in the account info", async () => {
    const database = freshDatabaseUrl();
    corral(database, "account", "new", "keeper", "keeper-password", "--admin");
    running = await startCorral({ database, allowPrivateAddresses: false });
    const first = running.url;
    let token = await signIn(first, "keeper");
    const created = await fetch(`${first}/fe/account/create`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ baseUrl: first, handle: "alice", name: "alice" }),
    });
    expect(created.status).toBe(201);
    const alice = ((await created.json()) as { id: string }).id;
    expect(await info(first, token)).not.toHaveProperty("actorsNotServed");
    expect(running.stderr()).not.toMatch(/Warning/);
    await running.kill();

    // The same database on another port: alice stays on the first base URL.
    running = await startCorral({ database, allowPrivateAddresses: false });
    const second = running.url;
    await expect.poll(() => running!.stderr(), { timeout: 10_000 }).toMatch(/Warning/);
    const warnings = running
      .stderr()
      .split("\n")
      .filter((line) => line.includes("Warning"));
    const port = new URL(first).port;
    expect(warnings).toEqual([
      `Warning: 1 actor lives on ${first}, which this server does not serve (it serves ${second}): alice (${alice}); its id and WebFinger answer 404. Start with --base-url ${first} --base-url ${second} (listening where that URL arrives: --port ${port}, or a proxy from it) to serve it.`,
    ]);
    token = await signIn(second, "keeper");
    const answer = await info(second, token);
    expect(answer.actors).toEqual([{ id: alice, name: "alice" }]);
    expect(answer.actorsNotServed).toEqual([
      {
        id: alice,
        name: "alice",
        baseUrl: first,
        reason: `${alice} lives on ${first}, which this server does not serve (it serves ${second}): its id and WebFinger answer 404 here. Start the server with --base-url ${first} --base-url ${second} (listening where that URL arrives: --port ${port}, or a proxy from it) to serve it.`,
      },
    ]);
  }, 90_000);
});
