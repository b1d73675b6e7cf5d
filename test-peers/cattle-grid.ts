// The real cattle_grid 0.5.22 (PyPI) as a peer for tests: federation tests of the server, the
// contract suite, browser tests of the console in proxy mode.
// docs/cattle-grid-differences.md#running-the-real-cattle_grid-in-tests says how it runs; this
// module does exactly that. Importable from any Vitest project.
//
//   const cg = await startCattleGrid();      // 10–25 s (plus ≈ 1–2 min once, for its virtualenv:
//                                            //   give beforeAll a long timeout, e.g. 600_000)
//   cg.origin                                // http://127.0.0.1:PORT: nginx in front, the public
//                                            //   origin (actors, WebFinger, /fe) and its only base
//                                            //   URL; `corral serve --upstream ${cg.origin}` for
//                                            //   proxy mode
//   cg.appUrl                                // http://127.0.0.1:PORT: uvicorn itself (openapi.json)
//   cg.amqpUrl                               // its RabbitMQ vhost (`--upstream-amqp`)
//   await cg.createAccount("alice", "alice-password");   // its own CLI, an --admin account
//                                            //   (≈ 5 s each: a Python start-up; run several at once)
//   const token = await cg.signIn("alice", "alice-password");   // POST /fe/signin, once the token
//                                            //   is accepted
//   const actor = await cg.createActor(token, "ana");   // POST /fe/account/create, once
//                                            //   /fe/account/info lists the actor
//   cg.output()                              // what uvicorn and nginx printed, for failure reports
//   await cg.stop();                         // kills both by pid, drops database and vhost,
//                                            //   removes its folder; safe to call twice
//
// Each instance has its own PostgreSQL database, RabbitMQ vhost (its queue names are fixed: two
// instances on one vhost would take each other's messages), temporary folder and two random
// loopback ports; one per test file is the intended use. cattle_grid commits a sign-in's token and
// a new actor after it has answered (docs/cattle-grid-differences.md#writes-answered-before-they-are-committed):
// signIn and createActor wait until cattle_grid shows them, so that a test's next call does not
// race that commit. Known quirks of cattle_grid itself (its acct URIs drop the port, an
// unsigned GET of an actor answers 401, ...) are in the spec and in cattle-grid.test.ts.
// Needs python3.11, nginx, RabbitMQ at 127.0.0.1:5672 (guest/guest, rabbitmqctl) and PostgreSQL
// at 127.0.0.1:5432 (trust; CORRAL_TEST_POSTGRES names another admin URL): a missing one throws
// an error of one line naming what to install or start (prerequisites.ts), never a skip.

import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { nginxConfig } from "./nginx-config.ts";
import { checkPrerequisites, thisMachine } from "./prerequisites.ts";
import { oneLineError } from "./programs.ts";
import { ensureVenv, REPO_ROOT } from "./python-venv.ts";
import { freePort } from "../test-kit/free-port.ts";
import { pollUntil } from "../test-kit/poll-until.ts";
import { signIn } from "../test-kit/sign-in.ts";

const execFileAsync = promisify(execFile);

export const CATTLE_GRID_REQUIREMENTS = join(REPO_ROOT, "test-peers/requirements-cattle-grid.txt");
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

export interface CattleGrid {
  /** nginx in front: the public origin and cattle_grid's only base URL, no trailing slash. */
  origin: string;
  /** uvicorn itself, bypassing nginx (its OpenAPI document is at /openapi.json). */
  appUrl: string;
  /** Its RabbitMQ vhost (Cattle Drive clients connect to amqp://…@127.0.0.1:5672/VHOST). */
  vhost: string;
  /** Its RabbitMQ vhost, as `amqp://guest:guest@127.0.0.1:5672/VHOST` (its events on amq.topic). */
  amqpUrl: string;
  /** `python -m cattle_grid account new NAME PASSWORD --admin` (names: ^[a-zA-Z0-9_]{1,16}$). */
  createAccount(name: string, password: string): Promise<void>;
  /** POST /fe/signin; the bearer token, once cattle_grid accepts it. */
  signIn(name: string, password: string): Promise<string>;
  /** POST /fe/account/create on cg.origin; the actor document, once the account's info lists it. */
  createActor(token: string, handle: string): Promise<{ id: string } & Record<string, unknown>>;
  /** Its PostgreSQL database, as a postgres:// URL (for tests that hold its locks). */
  databaseUrl: string;
  /** Everything uvicorn and nginx printed so far. */
  output(): string;
  /** kill -9 of cattle_grid's process (a crash): nginx stays and answers 502 meanwhile. */
  kill(): Promise<void>;
  /** Starts cattle_grid again after kill(), on the same port, database and vhost; ready when it resolves. */
  start(): Promise<void>;
  /** Stops uvicorn and nginx by pid, drops the database and the vhost, removes the folder. */
  stop(): Promise<void>;
}

export async function startCattleGrid(): Promise<CattleGrid> {
  const machine = thisMachine();
  const { nginx, rabbitmqctl } = await checkPrerequisites(machine);
  const venv = await ensureVenv(CATTLE_GRID_REQUIREMENTS);
  const python = join(venv, "bin/python");
  const env = { ...process.env, PATH: `${join(venv, "bin")}:${process.env.PATH ?? ""}` };

  const name = `cattle_grid_${randomBytes(5).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "cattle-grid-"));
  const cleanups: (() => Promise<unknown> | void)[] = [
    () => rmSync(dir, { recursive: true, force: true }),
  ];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await Promise.resolve()
        .then(cleanup)
        .catch(() => {});
    }
  };
  let output = "";
  try {
    const [appPort, port] = await Promise.all([freePort(), freePort()]);
    const origin = `http://127.0.0.1:${port}`;
    const appUrl = `http://127.0.0.1:${appPort}`;
    // Each of these takes seconds (Erlang and Python start-ups): side by side.
    const [database, vhost, config] = await Promise.allSettled([
      createDatabase(machine.postgresAdminUrl, name).then((url) => {
        cleanups.push(() => dropDatabase(machine.postgresAdminUrl, name));
        return url;
      }),
      rabbit(rabbitmqctl, ["add_vhost", name]).then(() => {
        cleanups.push(() => rabbit(rabbitmqctl, ["delete_vhost", name]));
        return rabbit(rabbitmqctl, ["set_permissions", "-p", name, "guest", ".*", ".*", ".*"]);
      }),
      // Writes cattle_grid_auth.toml: its instance actor and the key it signs its fetches with.
      execFileAsync(python, ["-m", "cattle_grid", "new-config", `${origin}/cattle_grid_actor`], {
        cwd: dir,
        env,
        timeout: 60_000,
      }).catch((error: Error & { stderr?: string }) => {
        throw oneLineError(
          `cattle_grid new-config failed: ${lastLine(error.stderr ?? error.message)}`,
        );
      }),
    ]);
    for (const result of [database, vhost, config]) {
      if (result.status === "rejected") throw result.reason;
    }
    const dbUrl = (database as PromiseFulfilledResult<string>).value;
    writeFileSync(join(dir, "cattle_grid.toml"), cattleGridToml({ dbUrl, vhost: name, origin }));

    const log = (chunk: Buffer) => (output += chunk.toString());
    const startApp = () =>
      track(
        spawn(
          python,
          ["-m", "uvicorn", "--factory", "cattle_grid:create_app", "--host", "127.0.0.1"].concat([
            "--port",
            String(appPort),
          ]),
          { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] },
        ),
        log,
      );
    let app = startApp();
    cleanups.push(() => stopProcess(app));
    writeFileSync(join(dir, "nginx.conf"), nginxConfig({ dir, port, appPort }));
    const proxy = track(
      spawn(nginx, ["-c", join(dir, "nginx.conf"), "-p", dir, "-e", join(dir, "nginx-error.log")], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      }),
      log,
    );
    cleanups.push(() => stopProcess(proxy));

    await waitUntil(`${appUrl}/openapi.json`, [app, proxy], () => output);
    await waitUntil(`${origin}/.well-known/nodeinfo`, [app, proxy], () => output);

    return {
      origin,
      appUrl,
      vhost: name,
      amqpUrl: amqpUrl(name),
      async createAccount(account, password) {
        await execFileAsync(
          python,
          ["-m", "cattle_grid", "account", "new", account, password, "--admin"],
          { cwd: dir, env, timeout: 60_000 },
        ).catch((error: Error & { stderr?: string }) => {
          throw new Error(`cattle_grid account new ${account}: ${error.stderr ?? error.message}`);
        });
      },
      async signIn(account, password) {
        const token = await signIn(origin, account, password).catch((error: Error) => {
          throw new Error(`cattle_grid ${error.message}`, { cause: error });
        });
        await pollUntil(`cattle_grid's token for ${account}`, async () =>
          Boolean(await accountInfo(origin, token)),
        );
        return token;
      },
      async createActor(token, handle) {
        const response = await fetch(`${origin}/fe/account/create`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ baseUrl: origin, handle }),
        });
        if (response.status !== 201) {
          throw new Error(
            `cattle_grid create ${handle}: ${response.status} ${await response.text()}`,
          );
        }
        const actor = (await response.json()) as { id: string } & Record<string, unknown>;
        await pollUntil(`cattle_grid listing ${actor.id}`, async () =>
          Boolean((await accountInfo(origin, token))?.actors.some((a) => a.id === actor.id)),
        );
        return actor;
      },
      databaseUrl: postgresUrl(machine.postgresAdminUrl, name),
      output: () => output,
      async kill() {
        const exited = new Promise((done) => app.once("exit", done));
        app.kill("SIGKILL");
        await exited;
      },
      async start() {
        if (app.exitCode === null && app.signalCode === null) return;
        app = startApp();
        await waitUntil(`${appUrl}/openapi.json`, [app, proxy], () => output);
      },
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

function cattleGridToml(input: { dbUrl: string; vhost: string; origin: string }): string {
  return [
    `db_url = ${JSON.stringify(input.dbUrl)}`,
    `amqp_url = ${JSON.stringify(amqpUrl(input.vhost))}`,
    // One process: the web app and its message processor.
    `processor_in_app = true`,
    ``,
    `[frontend]`,
    `base_urls = [${JSON.stringify(input.origin)}]`,
    ``,
    `[permissions.local]`,
    `base_urls = [${JSON.stringify(input.origin)}]`,
    ``,
    // Fills data.parsed in stream events.
    `[[extensions]]`,
    `module = "muck_out.extension"`,
    ``,
  ].join("\n");
}

async function accountInfo(
  origin: string,
  token: string,
): Promise<{ actors: { id: string }[] } | null> {
  const response = await fetch(`${origin}/fe/account/info`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    return null;
  }
  return (await response.json()) as { actors: { id: string }[] };
}

function postgresUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const amqpUrl = (vhost: string) => `amqp://guest:guest@127.0.0.1:5672/${vhost}`;

async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (error) {
    throw oneLineError(`CREATE DATABASE ${name} failed: ${(error as Error).message}`);
  } finally {
    await admin.end({ timeout: 1 });
  }
  const url = new URL(adminUrl);
  return `postgresql+asyncpg://${url.username || "postgres"}@${url.host}/${name}`;
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    // FORCE: connections of a process that did not stop in time.
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end({ timeout: 1 });
  }
}

async function rabbit(rabbitmqctl: string, args: string[]): Promise<void> {
  await execFileAsync(rabbitmqctl, ["--quiet", ...args], { timeout: 60_000 }).catch(
    (error: Error & { stderr?: string }) => {
      throw oneLineError(
        `rabbitmqctl ${args.join(" ")} failed (is RabbitMQ running? rabbitmq-server -detached): ${lastLine(error.stderr ?? error.message)}`,
      );
    },
  );
}

/** Collects the child's output; should the test process itself end, the child ends with it. */
function track(child: ChildProcess, log: (chunk: Buffer) => void): ChildProcess {
  child.stdout?.on("data", log);
  child.stderr?.on("data", log);
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  child.once("exit", () => process.off("exit", kill));
  return child;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

async function waitUntil(url: string, children: ChildProcess[], output: () => string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const ended = children.find((child) => child.exitCode !== null || child.signalCode !== null);
    if (ended) {
      throw new Error(
        `cattle_grid did not start (${ended.spawnfile} ended):\n${output().slice(-4000)}`,
      );
    }
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) {
      throw new Error(
        `cattle_grid did not answer ${url} within ${START_TIMEOUT_MS} ms:\n${output().slice(-4000)}`,
      );
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}

function lastLine(text: string): string {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? ""
  );
}
