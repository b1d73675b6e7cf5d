// almabtrieb 0.3.0 (PyPI), cattle_grid's own Cattle Drive client, as a peer for tests: one script
// (almabtrieb/drive_check.py) runs unchanged against the real cattle_grid 0.5.22 and against
// Corral, over AMQP or MQTT 5 over WebSocket. Importable from any Vitest project.
//
//   const run = await runDriveCheck({
//     alice: "ws://alice:PASSWORD@127.0.0.1:PORT/ws",   // or amqp://NAME:PASSWORD@HOST:PORT/VHOST
//     bob: "ws://bob:PASSWORD@127.0.0.1:PORT/ws",
//     baseUrl: "http://127.0.0.1:PORT",                  // one of both accounts' info baseUrls
//   });                                                  // ≈ 30 s once, for its virtualenv
//   run.ok, run.output                                   // "ALL OK" printed, and everything printed
//
// The script checks: info, create_actor, fetch, send_message arriving on the other account's
// incoming, its outgoing event, an error with the request's correlation id, another account's
// topic refused. almabtrieb pins pydantic 2.14, so it has a virtualenv of its own
// (requirements-almabtrieb.txt). Needs python3.11 (python-venv.ts names what to install).

import { spawn } from "node:child_process";
import { join } from "node:path";
import { ensureVenv, REPO_ROOT } from "./python-venv.ts";

export const ALMABTRIEB_REQUIREMENTS = "test-peers/requirements-almabtrieb.txt";
const SCRIPT = join(REPO_ROOT, "test-peers/almabtrieb/drive_check.py");

export interface DriveCheck {
  ok: boolean;
  /** Everything the script printed (stdout and stderr). */
  output: string;
}

export async function runDriveCheck(input: {
  alice: string;
  bob: string;
  baseUrl: string;
  timeoutMs?: number;
}): Promise<DriveCheck> {
  const venv = await ensureVenv(ALMABTRIEB_REQUIREMENTS);
  return new Promise((done, fail) => {
    const child = spawn(join(venv, "bin/python"), [SCRIPT, input.alice, input.bob, input.baseUrl], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), input.timeoutMs ?? 120_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (signal) output += `\n(killed by ${signal}: the script ran out of time)`;
      done({ ok: code === 0 && /^ALL OK$/m.test(output), output });
    });
  });
}
