// roboherd 0.1.14 (PyPI), cattle_grid's bot framework, as a peer for tests: a herd of its stock
// bots run unchanged against a Cattle Drive endpoint, over almabtrieb 0.3.0 (MQTT 5 over
// WebSocket). Importable from any Vitest project.
//
//   const herd = await startRoboherd({
//     connectionString: "ws://NAME:PASSWORD@127.0.0.1:PORT/ws",
//     baseUrl: "http://localhost:PORT",        // must be one of the account's info baseUrls
//     cows: { moocow: { bot: "roboherd.examples.moocow:moocow" } },
//   });                                        // ≈ 1 min once, for its virtualenv
//   await herd.waitForOutput(/Incoming processing started/);   // its own log line
//   herd.output()                              // what roboherd printed, for failure reports
//   await herd.stop();                         // SIGTERM, then SIGKILL, by pid; removes its folder
//
// roboherd pins pydantic 2.12.3 and cattle_grid 2.12.2, so it has a virtualenv of its own
// (requirements-roboherd.txt). Needs python3.11 (python-venv.ts names what to install).

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureVenv } from "./python-venv.ts";

export const ROBOHERD_REQUIREMENTS = "test-peers/requirements-roboherd.txt";
const STOP_GRACE_MS = 5_000;

export interface Cow {
  /** `module:attribute` of a RoboCow, e.g. roboherd.examples.moocow:moocow. */
  bot: string;
  /** The cow's `config` table (moocow reads `reply`). */
  config?: Record<string, string>;
}

export interface Herd {
  pid: number;
  output(): string;
  /** Resolves once roboherd printed a line matching `pattern`; fails if it exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** `roboherd run` with a roboherd.toml naming `cows`, in a temporary folder of its own. */
export async function startRoboherd(options: {
  connectionString: string;
  baseUrl: string;
  cows: Record<string, Cow>;
}): Promise<Herd> {
  const venv = await ensureVenv(ROBOHERD_REQUIREMENTS);
  const dir = mkdtempSync(join(tmpdir(), "roboherd-"));
  writeFileSync(join(dir, "roboherd.toml"), herdToml(options));
  const child = spawn(join(venv, "bin/roboherd"), ["--config_file", "roboherd.toml", "run"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PYTHONUNBUFFERED: "1" },
  });
  // Should the test worker itself be ended, the herd must not outlive it.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  let output = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exited = new Promise<void>((done) =>
    child.once("exit", () => {
      process.off("exit", killOnExit);
      for (const listener of listeners) listener();
      done();
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;

  return {
    pid: child.pid!,
    output: () => output,
    waitForOutput: (pattern, timeoutMs = 60_000) =>
      new Promise<void>((done, fail) => {
        const check = () => {
          if (pattern.test(output)) finish(done);
          else if (!running())
            finish(() => fail(new Error(`roboherd exited before ${pattern}:\n${output}`)));
        };
        const timer = setTimeout(
          () => finish(() => fail(new Error(`no ${pattern} from roboherd:\n${output}`))),
          timeoutMs,
        );
        const finish = (then: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          then();
        };
        listeners.add(check);
        check();
      }),
    stop: async () => {
      if (running()) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** roboherd.toml: TOML basic strings take JSON's escapes, so JSON.stringify quotes them. */
function herdToml(options: {
  connectionString: string;
  baseUrl: string;
  cows: Record<string, Cow>;
}): string {
  const q = JSON.stringify;
  const lines = [
    `base_url = ${q(options.baseUrl)}`,
    `connection_string = ${q(options.connectionString)}`,
  ];
  for (const [name, cow] of Object.entries(options.cows)) {
    lines.push("", `[cow.${name}]`, `bot = ${q(cow.bot)}`);
    if (cow.config) {
      lines.push("", `[cow.${name}.config]`);
      for (const [key, value] of Object.entries(cow.config)) lines.push(`${key} = ${q(value)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
