// Corral driven only through its public surface, as an operator would: `corral account new`, then
// `corral serve` as a child process, then /fe over HTTP. Any database URL and extra flags or
// environment can be given, so a scale bench can start PostgreSQL-backed or several processes.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

// CORRAL_BENCH_CLI: another checkout's server/src/cli.ts (paired before/after runs of one change);
// each call may also name its own (speed-guard.ts runs two checkouts side by side).
const defaultCli =
  process.env.CORRAL_BENCH_CLI ?? new URL("../../server/src/cli.ts", import.meta.url).pathname;

export interface CorralProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A fresh SQLite file in a temporary folder, as a --database value. */
export function tempSqliteDatabase(): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), "corral-bench-")), "corral.sqlite")}`;
}

/** `corral account new NAME PASSWORD --admin`; an account that already exists is kept. */
export function createCorralAccount(
  database: string,
  name: string,
  password: string,
  cli = defaultCli,
) {
  const run = spawnSync(
    process.execPath,
    [cli, "account", "new", name, password, "--admin", "--database", database],
    { encoding: "utf8" },
  );
  if (run.status !== 0 && !run.stderr.includes("already exists"))
    throw new Error(`corral account new failed: ${run.stderr.trim()}`);
}

/**
 * `corral serve` on 127.0.0.1 and a free port; resolves once it says where it serves. The port is
 * picked here, not with --port 0: `serve --port 0` gives actors the base URL http://localhost:0.
 */
export async function startCorral(options: {
  database: string;
  args?: string[];
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** Which checkout's server/src/cli.ts to run (default: this one, or CORRAL_BENCH_CLI). */
  cli?: string;
  /** Where its log (stderr) goes: a file descriptor; by default this process's stderr. */
  stderr?: number;
}): Promise<CorralProcess> {
  const port = await freePort();
  const cli = options.cli ?? defaultCli;
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      cli,
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--base-url",
      `http://127.0.0.1:${port}`,
      "--database",
      options.database,
      "--allow-private-addresses",
      ...(options.args ?? []),
    ],
    {
      stdio: ["ignore", "pipe", options.stderr ?? "inherit"],
      env: { ...process.env, ...options.env },
    },
  );
  killOnExit(child);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("corral serve did not start in 30 s")), 30_000);
    child.once("exit", (code) => reject(new Error(`corral serve exited with ${code}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = /serving on (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    url,
    pid: child.pid!,
    child,
    stop: () => stopChild(child),
  };
}

/** A port free right now on 127.0.0.1 (the OS picks it; we let go of it at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A bench that fails midway must not leave its servers running. */
export function killOnExit(child: ChildProcess) {
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  child.once("exit", () => process.off("exit", kill));
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** A client of one Corral's /fe for one account. */
export async function signIn(url: string, name: string, password: string) {
  const token = ((await fe(url, null, "/fe/signin", { name, password })) as { token: string })
    .token;
  return {
    token,
    /** POST /fe/account/create: the new actor's id and shared inbox. */
    async createActor(handle: string) {
      const doc = (await fe(url, token, "/fe/account/create", { baseUrl: url, handle })) as {
        id: string;
        inbox: string;
        endpoints?: { sharedInbox?: string };
      };
      return { id: doc.id, sharedInbox: doc.endpoints?.sharedInbox ?? doc.inbox };
    },
    /** POST /fe/actor/trigger/METHOD, which answers 202 before the work is done. */
    trigger: (method: string, body: Record<string, unknown>) =>
      fe(url, token, `/fe/actor/trigger/${method}`, body),
  };
}

async function fe(url: string, token: string | null, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<unknown>;
}
