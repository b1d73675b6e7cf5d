import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { killOnExit, REPO_ROOT } from "../test-kit/corral-process.ts";
import { freePort } from "../test-kit/free-port.ts";

// `npm start` under a process manager: a container's stop, or `kill <npm's pid>`, sends SIGTERM to
// npm alone. npm passes it to the shell it ran scripts/start.mjs in, and that shell dies without
// passing it on; the server must stop all the same, not keep serving with no parent.

const dir = mkdtempSync(join(tmpdir(), "corral-npm-start-"));
afterAll(() => {
  // What this test started and left behind (its temporary folder is in their command lines):
  // without the fix, start.mjs and the server it started.
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (command.includes(dir) && Number(pid) !== process.pid) process.kill(Number(pid), "SIGKILL");
  }
  rmSync(dir, { recursive: true, force: true });
});

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, limitMs: number) {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("stops serving when npm start's npm gets SIGTERM", async () => {
  const port = await freePort();
  const npm = spawn(
    "npm",
    [
      "start",
      "--silent",
      "--",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--database",
      `sqlite:${join(dir, "corral.sqlite")}`,
    ],
    { cwd: REPO_ROOT, stdio: "ignore" },
  );
  killOnExit(npm);
  const ready = `http://127.0.0.1:${port}/readyz`;
  await waitFor("npm start answering /readyz", () => answers(ready), 90_000);
  const npmExited = new Promise((done) => npm.once("exit", done));
  npm.kill("SIGTERM");
  await npmExited;
  await waitFor(
    "the server stopping after npm's SIGTERM",
    async () => !(await answers(ready)),
    10_000,
  );
  expect(await answers(ready)).toBe(false);
}, 120_000);
