import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
// Node 24 from the `node` npm package: the machine's own Node (20) cannot run .ts files.
const NODE = join(REPO_ROOT, "node_modules/.bin/node");
const CLI = join(REPO_ROOT, "server/src/cli.ts");
const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 3_000;

/** A real Corral server in a child process, with its own SQLite file in a temporary folder. */
export type Corral = {
  /** The console's origin, e.g. http://127.0.0.1:41234 (also the only base URL). */
  url: string;
  databaseUrl: string;
  /** Starts it again on the same port and database (after stop). */
  start(): Promise<void>;
  /** Stops the process (SIGTERM, then SIGKILL) and waits until it has exited. */
  stop(): Promise<void>;
  /** Kills the process at once (SIGKILL, as a crash), and waits until it has exited. */
  kill(): Promise<void>;
  /** Runs `corral account …` against this database and returns its stdout. */
  account(...args: string[]): Promise<string>;
  /** Everything the server printed so far, for failure reports. */
  output(): string;
  /** Stops the server and deletes the database folder. */
  dispose(): Promise<void>;
};

/**
 * `upstream`: proxy mode (`--upstream`), forwarding /fe to that server instead of answering it;
 * `upstreamAmqp` (`--upstream-amqp`): recording its events from its RabbitMQ (docs/proxy-history.md).
 * `allowPrivateAddresses: false` leaves out `--allow-private-addresses` (the production default).
 * `databaseUrl`: another server's database (stopped first), served on this one's port.
 */
export async function startCorral(
  options: {
    upstream?: string;
    upstreamAmqp?: string;
    allowPrivateAddresses?: boolean;
    databaseUrl?: string;
  } = {},
): Promise<Corral> {
  const dir = mkdtempSync(join(tmpdir(), "corral-e2e-"));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(dir, "corral.sqlite")}`;
  let child: ChildProcess | null = null;
  let output = "";

  const start = async () => {
    if (child) throw new Error("the server is already running");
    const args = [CLI, "serve", "--port", String(port), "--host", "127.0.0.1", "--base-url", url];
    args.push("--database", databaseUrl);
    if (options.allowPrivateAddresses !== false) args.push("--allow-private-addresses");
    if (options.upstream) args.push("--upstream", options.upstream);
    if (options.upstreamAmqp) args.push("--upstream-amqp", options.upstreamAmqp);
    const started = spawn(NODE, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    child = started;
    // Should the test worker itself be ended, the server must not outlive it.
    const killOnExit = () => started.kill("SIGKILL");
    process.once("exit", killOnExit);
    started.once("exit", () => process.off("exit", killOnExit));
    started.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    started.once("exit", () => {
      if (child === started) child = null;
    });
    await waitUntilAnswering(url, started, () => output);
  };

  const stop = async () => {
    const running = child;
    if (!running) return;
    if (running.exitCode !== null || running.signalCode !== null) {
      child = null;
      return;
    }
    const exited = new Promise((done) => running.once("exit", done));
    running.kill("SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
    child = null;
  };

  const kill = async () => {
    const running = child;
    if (!running) return;
    if (running.exitCode === null && running.signalCode === null) {
      const exited = new Promise((done) => running.once("exit", done));
      running.kill("SIGKILL");
      await exited;
    }
    child = null;
  };

  const account = async (...args: string[]) => {
    const { stdout } = await execFileAsync(
      NODE,
      [CLI, "account", ...args, "--database", databaseUrl],
      {
        cwd: REPO_ROOT,
      },
    );
    return stdout;
  };

  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    databaseUrl,
    start,
    stop,
    kill,
    account,
    output: () => output,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asks the kernel for a free port; the server gets it on the command line (its base URL names it). */
function findFreePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? done(address.port) : fail(new Error("no port")),
      );
    });
  });
}

async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `corral serve exited (${child.exitCode ?? child.signalCode}) before answering:\n${output()}`,
      );
    }
    try {
      // Any HTTP answer will do (401 without a token): the server is listening and routing.
      await fetch(`${url}/fe/account/info`, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  child.kill("SIGKILL");
  throw new Error(
    `corral serve did not answer on ${url} within ${START_TIMEOUT_MS} ms:\n${output()}`,
  );
}
