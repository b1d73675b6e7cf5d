// Runs `corral …` as a real process, the way an operator's shell does.

import { execFile, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Options = { env?: Record<string, string>; cwd?: string };

export function runCli(args: string[], options: Options = {}): CliResult {
  const result = spawnSync(process.execPath, [cli, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same, without blocking this process (for tests that serve HTTP to the command). */
export function runCliAsync(args: string[], options: Options = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cli, ...args],
      { env: { ...process.env, ...options.env }, cwd: options.cwd, timeout: 30_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

/** Exactly one line on stderr, matching `pattern`, and no stack trace. */
export function expectOneLine(stderr: string, pattern: RegExp) {
  const lines = stderr.trimEnd().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

export interface ServingCli {
  url: string;
  readonly stdout: string;
  readonly stderr: string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `corral serve …` as a process and resolves once it printed its URL. */
export function serveCli(args: string[], options: Options = {}): Promise<ServingCli> {
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no URL printed: ${stdout} ${stderr}`));
    }, 20_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /serving on (http:\/\/\S+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        get stdout() {
          return stdout;
        },
        get stderr() {
          return stderr;
        },
        stop: () => {
          child.kill("SIGTERM");
          return exited;
        },
      });
    });
    void exited.then((code) => reject(new Error(`corral exited with ${code}: ${stderr}`)));
  });
}
