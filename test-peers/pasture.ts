// bovine's fediverse-pasture 0.2.25 and fediverse-pasture-inputs from PyPI, for tests: its
// verify_actor app as a process on loopback (started and stopped by pid), and the inputs corpus
// exported to JSON.

import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureVenv } from "./python-venv.ts";
import { freePort } from "../test-kit/free-port.ts";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const requirements = here("requirements-pasture.txt");

/** The Python of the pasture's virtualenv, built on first use. */
export async function pasturePython(): Promise<string> {
  return join(await ensureVenv(requirements), "bin", "python");
}

export interface VerifyActor {
  /** http://HOST:PORT; its personas are at /alice, /bob, … */
  url: string;
  pid: number;
  /** Runs it against an actor: GET /?actor_uri=… with `accept: application/json`. */
  verify(actorUri: string): Promise<VerifyActorResult>;
  stop(): Promise<void>;
}

export type PersonaResult = { get_actor: boolean; post_inbox: boolean };
export type VerifyActorResult = {
  result: Record<"alice" | "bob" | "claire" | "dean" | "emily" | "frank", PersonaResult> & {
    webfinger: boolean;
  };
  /** Its log of what it did, as a JSON string. */
  messages: string;
};

/** verify_actor on `host` and a free port; resolves once it answers. */
export async function startVerifyActor(host = "127.0.0.1"): Promise<VerifyActor> {
  const python = await pasturePython();
  const port = await freePort(host);
  // It writes its personas' keys to data.toml in its working folder: a fresh one per run.
  const folder = mkdtempSync(join(tmpdir(), "corral-pasture-"));
  const child = spawn(python, [here("pasture/verify_actor.py"), host, String(port)], {
    cwd: folder,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://${host}:${port}`;
  const stop = async () => {
    await kill(child);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    pid: child.pid!,
    async verify(actorUri) {
      const response = await fetch(`${url}/?actor_uri=${encodeURIComponent(actorUri)}`, {
        headers: { accept: "application/json" },
      });
      if (response.status !== 200)
        throw new Error(`verify_actor answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as VerifyActorResult;
    },
    stop,
  };
}

export interface PastureInput {
  /** The input's file name in fediverse-pasture-inputs (e.g. `html_tags`) and its title. */
  input: string;
  title: string;
  /** Which of its examples. */
  index: number;
  /** A Create from http://actor.example to http://remote.example/, as bovine builds it. */
  activity: Record<string, unknown>;
}

/** Every example of fediverse-pasture-inputs as its activity (export_inputs.py). */
export async function exportPastureInputs(): Promise<PastureInput[]> {
  const python = await pasturePython();
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      python,
      [here("pasture/export_inputs.py")],
      { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, out, err) =>
        error
          ? reject(new Error(`export_inputs.py failed: ${err || error.message}`))
          : resolve(out),
    ),
  );
  return JSON.parse(stdout) as PastureInput[];
}

async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`verify_actor exited (${child.exitCode ?? child.signalCode}): ${output()}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`verify_actor did not answer at ${url}: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    process.kill(child.pid!, "SIGKILL");
  });
}
