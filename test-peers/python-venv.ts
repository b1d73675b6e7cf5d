// A Python virtualenv per pinned requirements file, built once and reused by every later run.
//
//   ensureVenv("test-peers/requirements-cattle-grid.txt") -> "/…/.cache/peers/<hash>"
//
// The folder is named after a hash of the file's bytes, so changing a pin builds a new one (old
// ones may be deleted by hand: `rm -r .cache/peers`). It is built in place (virtualenvs hold
// absolute paths) under a lock folder, and marked ready only at the end: a second process waits
// for the first, a build that died half-way is thrown away and redone. A missing python3.11 is
// one line naming what to install.
//
// A build mostly waits on pip's downloads (≈ 25–90 s of waiting for ≈ 5–30 s of CPU), so a whole
// run starts every missing one at once, in the background, before its first test file
// (prebuildVenvs, from the global setups): by the time a test asks, it is built or nearly.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findProgram, oneLineError } from "./programs.ts";

export const REPO_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const CACHE = join(REPO_ROOT, ".cache/peers");
const PYTHON = "python3.11";
const BUILD_TIMEOUT_MS = 8 * 60_000;
const READY = ".ready";

/** Every pinned requirements file of the test peers: test-peers/requirements-*.txt. */
export function peerRequirements(): string[] {
  const dir = join(REPO_ROOT, "test-peers");
  return readdirSync(dir)
    .filter((name) => /^requirements-.*\.txt$/.test(name))
    .map((name) => join(dir, name));
}

/** The virtualenv folder for `requirementsFile` (built or not). */
export function venvFolder(requirementsFile: string): string {
  const requirements = resolve(REPO_ROOT, requirementsFile);
  const hash = createHash("sha256").update(readFileSync(requirements)).digest("hex").slice(0, 16);
  return join(CACHE, hash);
}

/** Whether the virtualenv for `requirementsFile` is built and ready. */
export function venvReady(requirementsFile: string): boolean {
  return existsSync(join(venvFolder(requirementsFile), READY));
}

/**
 * Starts building every peer virtualenv (or those of `files`) that is not built yet, all at once,
 * and returns at once.
 * Nothing is reported here: a build that fails fails again, with its one line, in the test that
 * asks for it. The function returned ends the builds still under way (their pip killed, the lock
 * freed; the next run builds those again); call it when the run ends.
 */
export function prebuildVenvs(
  options: { path?: string[]; files?: string[] } = {},
): () => Promise<void> {
  const abort = new AbortController();
  const builds = (options.files ?? peerRequirements())
    .filter((file) => !venvReady(file))
    .map((file) => ensureVenv(file, { path: options.path, signal: abort.signal }).catch(() => {}));
  return async () => {
    abort.abort();
    await Promise.all(builds);
  };
}

/**
 * Builds (once) and returns the virtualenv folder for `requirementsFile`; its programs are in bin/.
 * `path`: the folders to find python3.11 in (default: PATH); `signal`: gives up (pip killed).
 */
export async function ensureVenv(
  requirementsFile: string,
  options: { path?: string[]; signal?: AbortSignal } = {},
): Promise<string> {
  const requirements = resolve(REPO_ROOT, requirementsFile);
  const venv = venvFolder(requirements);
  if (existsSync(join(venv, READY))) return venv;
  const python = findProgram(PYTHON, options.path);
  if (!python) {
    throw oneLineError(
      `the real-peer tests need Python 3.11 (${PYTHON} with venv): apt-get install -y python3.11-venv`,
    );
  }
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    if (existsSync(join(venv, READY))) return venv;
    if (takeLock(`${venv}.lock`)) break;
    if (options.signal?.aborted) throw oneLineError(`gave up building ${venv}: the run ended`);
    if (Date.now() > deadline) {
      throw oneLineError(`gave up waiting for another process to build ${venv}`);
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  try {
    if (existsSync(join(venv, READY))) return venv;
    rmSync(venv, { recursive: true, force: true });
    const started = Date.now();
    await run(python, ["-m", "venv", venv], deadline, options.signal);
    await run(
      join(venv, "bin/pip"),
      ["install", "--quiet", "--disable-pip-version-check", "-r", requirements],
      deadline,
      options.signal,
    );
    writeFileSync(join(venv, READY), `${requirementsFile} built in ${Date.now() - started} ms\n`);
    return venv;
  } finally {
    rmSync(`${venv}.lock`, { recursive: true, force: true });
  }
}

/** mkdir is atomic: whoever creates the folder holds the lock. A holder that died loses it. */
function takeLock(lock: string): boolean {
  mkdirSync(dirname(lock), { recursive: true });
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  let holder: number;
  try {
    holder = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    // Created but its pid not written yet: the holder is alive and busy.
    return false;
  }
  if (isAlive(holder)) return false;
  rmSync(lock, { recursive: true, force: true });
  return false;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function run(
  command: string,
  args: string[],
  deadline: number,
  abort?: AbortSignal,
): Promise<void> {
  return new Promise((done, fail) => {
    if (abort?.aborted) return fail(oneLineError(`${command}: not started, the run ended`));
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), Math.max(deadline - Date.now(), 1));
    const kill = () => child.kill("SIGKILL");
    abort?.addEventListener("abort", kill);
    // Should this process end first (a run stopped with Ctrl-C), pip ends with it.
    process.once("exit", kill);
    const cleanUp = () => {
      clearTimeout(timer);
      abort?.removeEventListener("abort", kill);
      process.off("exit", kill);
    };
    child.once("error", (error) => {
      cleanUp();
      fail(oneLineError(`${command}: ${error.message}`));
    });
    child.once("exit", (code, signal) => {
      cleanUp();
      if (code === 0) return done();
      // pip names each missing local index folder in a warning line; the last real line says why.
      const last = output
        .split("\n")
        .filter((line) => line.trim() && !line.startsWith("WARNING: Location"))
        .at(-1);
      fail(
        oneLineError(
          `${[command, ...args].join(" ")} failed (${signal ?? `exit ${code}`})${last ? `: ${last.trim()}` : ""}`,
        ),
      );
    });
  });
}
