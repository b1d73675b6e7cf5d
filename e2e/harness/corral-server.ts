import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../test-kit/free-port.ts";
import {
  REPO_ROOT,
  runCliAsync,
  startCorral as startCorralProcess,
  type CorralProcess,
} from "../../test-kit/corral-process.ts";

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
  // Its own port, kept across restarts: the base URL (and so every actor id) names it.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(dir, "corral.sqlite")}`;
  let child: CorralProcess | null = null;
  // What the processes before this one printed (a restart keeps the story whole).
  let earlier = "";

  const ended = (running: CorralProcess) => {
    earlier += running.output();
    if (child === running) child = null;
  };

  const start = async () => {
    // A process that ended by itself (a crash the test caused) makes way for the new one.
    if (child && (child.child.exitCode !== null || child.child.signalCode !== null)) ended(child);
    if (child) throw new Error("the server is already running");
    const args: string[] = [];
    if (options.upstream) args.push("--upstream", options.upstream);
    if (options.upstreamAmqp) args.push("--upstream-amqp", options.upstreamAmqp);
    child = await startCorralProcess({
      port,
      database: databaseUrl,
      allowPrivateAddresses: options.allowPrivateAddresses !== false,
      args,
      cwd: REPO_ROOT,
      startTimeoutMs: START_TIMEOUT_MS,
    });
  };

  const stop = async () => {
    const running = child;
    if (!running) return;
    await running.stop(STOP_GRACE_MS);
    ended(running);
  };

  const kill = async () => {
    const running = child;
    if (!running) return;
    await running.kill();
    ended(running);
  };

  const account = async (...args: string[]) => {
    const result = await runCliAsync(["account", ...args, "--database", databaseUrl], {
      cwd: REPO_ROOT,
    });
    if (result.code !== 0)
      throw new Error(`corral account ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
    return result.stdout;
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
    output: () => earlier + (child?.output() ?? ""),
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
