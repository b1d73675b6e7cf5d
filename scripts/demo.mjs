#!/usr/bin/env node
// `npm run demo`: two Corral servers on loopback that federate with each other, so a newcomer can
// sign in to either console and watch activities flow through the streams within a minute.
//   A: http://127.0.0.1:3000 (alice)   B: http://127.0.0.2:3001 (bob)
// Both run with --allow-private-addresses (they talk over loopback) and keep their data in
// ./data/demo-a.sqlite and ./data/demo-b.sqlite, started afresh on every run. Ctrl-C stops both.

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const INTERVAL_MS = 4000;
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

const sides = [
  {
    label: "A",
    host: "127.0.0.1",
    port: Number(process.env.DEMO_PORT_A ?? 3000),
    handle: "alice",
    file: "data/demo-a.sqlite",
  },
  {
    label: "B",
    host: "127.0.0.2",
    port: Number(process.env.DEMO_PORT_B ?? 3001),
    handle: "bob",
    file: "data/demo-b.sqlite",
  },
];

async function main() {
  buildConsoleIfNeeded();
  await import("../server/src/quiet-warnings.ts");
  const { startServer } = await import("../server/src/main.ts");
  const { createAccount } = await import("../server/src/accounts/index.ts");
  const { createActor } = await import("../server/src/actors/index.ts");
  const { execute } = await import("../server/src/methods/index.ts");

  const running = [];
  for (const side of sides) {
    for (const suffix of ["", "-wal", "-shm"])
      rmSync(`${root}${side.file}${suffix}`, { force: true });
    const base = `http://${side.host}:${side.port}`;
    const server = await startServer({
      port: side.port,
      host: side.host,
      baseUrls: [base],
      database: `sqlite:${root}${side.file}`,
      allowPrivateAddresses: true,
    });
    running.push(server);
    const password = randomBytes(9).toString("base64url");
    const account = await createAccount(server.services.db, {
      name: "demo",
      password,
      admin: true,
    });
    if (!account.ok) throw new Error(`could not create the demo account: ${account.error}`);
    const actor = await createActor(server.services.db, {
      accountId: account.account.id,
      baseUrl: base,
      handle: side.handle,
      name: side.handle,
    });
    if (!actor.ok) throw new Error(`could not create @${side.handle}: ${actor.error}`);
    Object.assign(side, {
      server,
      base,
      password,
      accountId: account.account.id,
      actorId: actor.actor.id,
    });
  }

  const stop = async () => {
    clearInterval(timer);
    console.log("\nstopping both servers…");
    await Promise.allSettled(running.map((s) => s.close()));
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);

  const run = (side, method, body) =>
    execute(side.server.services, {
      accountId: side.accountId,
      method,
      body: { actor: side.actorId, ...body },
    });

  // Each accepts followers automatically and follows the other.
  for (const side of sides)
    await run(side, "update_actor", {
      autoFollow: true,
      profile: {
        name: side.handle === "alice" ? "Alice (demo A)" : "Bob (demo B)",
        summary: "<p>A Corral demo actor.</p>",
      },
    });
  for (const [me, other] of [
    [sides[0], sides[1]],
    [sides[1], sides[0]],
  ]) {
    await run(me, "send_message", {
      data: {
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${me.actorId}#follow-${Date.now()}`,
        type: "Follow",
        actor: me.actorId,
        object: other.actorId,
        to: [other.actorId],
      },
    });
  }

  console.log("Corral demo: two federating servers\n");
  for (const side of sides) {
    console.log(
      `  ${side.label}: ${side.base}   sign in as: demo / ${side.password}   actor @${side.handle}@${new URL(side.base).host}`,
    );
  }
  console.log(
    `\nalice and bob follow each other and exchange a Note every ${INTERVAL_MS / 1000} s.`,
  );
  console.log(
    "Open either URL, sign in, and watch the incoming and outgoing streams. Ctrl-C stops both.\n",
  );

  let turn = 0;
  const timer = setInterval(() => {
    const me = sides[turn % 2];
    const other = sides[(turn + 1) % 2];
    turn++;
    const content = `<p>Note #${turn} from @${me.handle} to @${other.handle} at ${new Date().toISOString()}</p>`;
    void run(me, "publish_object", {
      data: {
        type: "Note",
        content,
        to: [other.actorId, PUBLIC],
        cc: [`${me.actorId}/followers`],
        tag: [
          {
            type: "Mention",
            href: other.actorId,
            name: `@${other.handle}@${new URL(other.base).host}`,
          },
        ],
      },
    });
  }, INTERVAL_MS);
}

function buildConsoleIfNeeded() {
  if (existsSync(`${root}console/dist/index.html`)) return;
  console.log("building the console first (once)…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error("demo: the console build failed; see above");
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(`demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
