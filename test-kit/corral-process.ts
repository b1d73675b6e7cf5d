// Corral as its operator runs it, for unit, browser and bench tests alike: `corral account …`
// and `corral serve …` as real child processes (so SIGTERM and SIGKILL are real), on any
// --database. One launcher; callers differ only in the flags and options they give it.

import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.ts";

/** The repository's root folder. */
export const REPO_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/** This checkout's command line (server/src/cli.ts). */
export const CLI = join(REPO_ROOT, "server/src/cli.ts");

/**
 * The Node that runs it: this process's, unless that one is older than 24 (the machine's own Node
 * 20 cannot run .ts files), then Node 24 from the `node` npm package.
 */
export const NODE =
  Number(process.versions.node.split(".")[0]) >= 24
    ? process.execPath
    : join(REPO_ROOT, "node_modules/.bin/node");

/** A fresh SQLite file in a temporary folder of its own, as a --database value. */
export function tempSqliteDatabase(prefix = "corral-test-"): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), prefix)), "corral.sqlite")}`;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Which checkout's server/src/cli.ts to run (default: this one). */
  cli?: string;
}

/** Runs `corral ARGS` to its end (30 s at most) and returns its exit code and output. */
export function runCli(args: string[], options: CliOptions = {}): CliResult {
  const result = spawnSync(NODE, [options.cli ?? CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same, without blocking this process (for tests that serve HTTP to the command). */
export function runCliAsync(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      NODE,
      [options.cli ?? CLI, ...args],
      { env: { ...process.env, ...options.env }, cwd: options.cwd, timeout: 30_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

/** Runs `corral ARGS --database DATABASE`; throws, with its stderr, on a non-zero exit. */
export function corral(database: string, ...args: string[]): string {
  const result = runCli([...args, "--database", database]);
  if (result.code !== 0)
    throw new Error(`corral ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** `corral account new NAME PASSWORD --admin`; an account that already exists is kept. */
export function createCorralAccount(
  database: string,
  name: string,
  password: string,
  cli = CLI,
): void {
  const result = runCli(["account", "new", name, password, "--admin", "--database", database], {
    cli,
  });
  if (result.code !== 0 && !result.stderr.includes("already exists"))
    throw new Error(`corral account new failed: ${result.stderr.trim()}`);
}

export interface CorralProcess {
  /** Where it serves, as it printed it ("Corral is serving on URL"). */
  url: string;
  pid: number;
  child: ChildProcess;
  /** What it printed so far on stdout. */
  stdout(): string;
  /** What it printed so far on stderr (empty unless `stderr` is "pipe", the default). */
  stderr(): string;
  /** Both, in the order printed, for failure reports. */
  output(): string;
  /** SIGTERM; SIGKILL if it has not exited after `graceMs`; then its exit code. */
  stop(graceMs?: number): Promise<number | null>;
  /** SIGKILL (a crash: no shutdown at all), and waits until it has exited. */
  kill(): Promise<void>;
}

export interface LaunchOptions {
  env?: Record<string, string>;
  /** Flags for Node itself, before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Which Node runs it (default: NODE). */
  node?: string;
  /** Which checkout's server/src/cli.ts to run (default: this one). */
  cli?: string;
  cwd?: string;
  /** Where its stderr goes: kept for stderr()/output() ("pipe", the default), "inherit", or a file descriptor. */
  stderr?: "pipe" | "inherit" | number;
  /** How long it may take to say where it serves (default 150 s: a loaded machine is slow). */
  startTimeoutMs?: number;
}

/**
 * Runs `corral ARGS` (a serve command, as given) and resolves once it prints where it serves;
 * rejects, with its output, if it exits first or stays silent for `startTimeoutMs` (then it is
 * killed). Should this process end first, the child is killed with it.
 */
export function launchCorral(args: string[], options: LaunchOptions = {}): Promise<CorralProcess> {
  const child = spawn(
    options.node ?? NODE,
    [...(options.nodeArgs ?? []), options.cli ?? CLI, ...args],
    {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", options.stderr ?? "pipe"],
    },
  );
  killOnExit(child);
  let stdout = "";
  let stderr = "";
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const timeoutMs = options.startTimeoutMs ?? 150_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`corral serve did not say where it serves within ${timeoutMs} ms:\n${output}`),
      );
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(`corral serve exited (${code ?? child.signalCode}) before serving:\n${output}`),
      );
    });
    const onData = () => {
      const match = /serving on (http:\/\/\S+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve({
        url: match[1]!,
        pid: child.pid!,
        child,
        stdout: () => stdout,
        stderr: () => stderr,
        output: () => output,
        stop: (graceMs = 10_000) => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill("SIGTERM");
            const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
            void exited.then(() => clearTimeout(force));
          }
          return exited;
        },
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          await exited;
        },
      });
    };
    child.stdout!.on("data", onData);
  });
}

export interface StartOptions extends LaunchOptions {
  /** The --database value; leave it out when `args` names one. */
  database?: string;
  /**
   * The port (default: a free one, named in a --base-url unless `args` gives one; the command
   * line's --port 0 would name port 0 in actor ids). 0: the kernel's choice, and no --base-url.
   */
  port?: number;
  /** --allow-private-addresses (default true; false is the production default). */
  allowPrivateAddresses?: boolean;
  /** More flags for `corral serve`. */
  args?: string[];
}

/** `corral serve` on 127.0.0.1; resolves once it serves (see launchCorral). */
export async function startCorral(options: StartOptions = {}): Promise<CorralProcess> {
  const args = options.args ?? [];
  const port = options.port ?? (await freePort());
  const serve = ["serve", "--host", "127.0.0.1", "--port", String(port)];
  if (port !== 0 && !args.includes("--base-url"))
    serve.push("--base-url", `http://127.0.0.1:${port}`);
  if (options.database !== undefined) serve.push("--database", options.database);
  if (options.allowPrivateAddresses !== false) serve.push("--allow-private-addresses");
  return launchCorral([...serve, ...args], options);
}

/** Kills `child` (SIGKILL) should this process end first: a test or bench that fails midway leaves no server running. */
export function killOnExit(child: ChildProcess): void {
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  child.once("exit", () => process.off("exit", kill));
}

/** SIGTERM, SIGKILL after `graceMs`, and resolves once `child` has exited. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
