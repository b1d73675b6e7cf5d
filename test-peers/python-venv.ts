// Python tools from PyPI for the tests (fediverse-pasture, schemathesis, …), each in a virtualenv
// of its own under the git-ignored `.cache/peers/<hash>/`, keyed by the pinned requirements file:
// built with `python3.11 -m venv` and `pip install -r` on first use, reused afterwards. Two test
// files asking at once (vitest runs files in parallel processes) share one build through a lock
// file. A missing Python 3.11 ends the test with one line naming what to install: never a skip.

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The interpreter the virtualenvs are made with (a test may name another). */
export const python = "python3.11";
const cacheRoot = fileURLToPath(new URL("../.cache/peers/", import.meta.url));
/** Building one takes ≈ 25 s on an idle machine; waiting for another process's build is bounded. */
const LOCK_WAIT_MS = 10 * 60_000;
const LOCK_POLL_MS = 200;

const building = new Map<string, Promise<string>>();

/** The virtualenv (its folder) with exactly the packages `requirementsFile` pins. */
export function ensureVenv(
  requirementsFile: string,
  options: { python?: string } = {},
): Promise<string> {
  const interpreter = options.python ?? python;
  const requirements = readFileSync(requirementsFile);
  const hash = createHash("sha256")
    .update(`${interpreter}\0`)
    .update(requirements)
    .digest("hex")
    .slice(0, 16);
  const dir = join(cacheRoot, hash);
  let pending = building.get(dir);
  if (!pending) {
    pending = build(dir, requirementsFile, interpreter);
    building.set(dir, pending);
    pending.catch(() => building.delete(dir));
  }
  return pending;
}

async function build(dir: string, requirementsFile: string, python: string): Promise<string> {
  const done = join(dir, ".complete");
  if (existsSync(done)) return dir;
  checkPython(python);
  mkdirSync(cacheRoot, { recursive: true });
  await withLock(`${dir}.lock`, async () => {
    if (existsSync(done)) return; // another process built it while we waited
    const log = `${dir}.log`;
    const started = Date.now();
    process.stderr.write(`building the Python virtualenv for ${requirementsFile} (first use)\n`);
    rmSync(dir, { recursive: true, force: true }); // a build that was interrupted
    writeFileSync(log, "");
    await run(python, ["-m", "venv", dir], log);
    await run(join(dir, "bin", "python"), ["-m", "pip", "install", "-r", requirementsFile], log);
    writeFileSync(done, `${new Date().toISOString()} built in ${Date.now() - started} ms\n`);
  });
  return dir;
}

function checkPython(python: string) {
  const probe = spawnSync(python, ["-c", "import venv, ensurepip"], { encoding: "utf8" });
  if (probe.error || probe.status === 127)
    throw new Error(
      `${python} not found: install Python 3.11 with its venv module (Debian: apt-get install python3.11 python3.11-venv)`,
    );
  if (probe.status !== 0)
    throw new Error(
      `${python} has no venv/ensurepip module: install it (Debian: apt-get install python3.11-venv)`,
    );
}

function run(command: string, args: string[], log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fd = openSync(log, "a");
    const child = spawn(command, args, { stdio: ["ignore", fd, fd] });
    closeSync(fd);
    child.once("error", (error) => reject(new Error(`${command}: ${error.message}`)));
    child.once("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `${[command, ...args].join(" ")} failed (${signal ?? `exit ${code}`}); its output is in ${log}`,
            ),
          ),
    );
  });
}

/** Runs `fn` holding the lock file `path` (it holds the holder's pid); a dead holder's is taken over. */
async function withLock(path: string, fn: () => Promise<void>) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number.parseInt(readLock(path), 10);
    // An empty file is a lock being written this instant: its holder is alive.
    if (Number.isSafeInteger(holder) && !isAlive(holder)) {
      rmSync(path, { force: true }); // left by a run that was killed mid-build
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(`waited ${LOCK_WAIT_MS / 60_000} min for ${path} (held by pid ${holder})`);
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
  try {
    await fn();
  } finally {
    rmSync(path, { force: true });
  }
}

function readLock(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
