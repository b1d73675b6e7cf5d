// Corral as its operator runs it: `corral account …` and `corral serve …` as child processes
// on a SQLite file, killed outright (SIGKILL) when a test needs a crash, or so that a test of a
// runaway request never leaves work running inside the test process.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

/** Runs `corral ARGS --database DATABASE`; fails the test on a non-zero exit. */
export function corral(database: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, [cli, ...args, "--database", database], {
    encoding: "utf8",
    timeout: 30_000,
  });
  if (result.status !== 0)
    throw new Error(`corral ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  kill(): Promise<void>;
}

/**
 * `corral serve` on 127.0.0.1 and a free port, that port in its base URL (with --port 0 the
 * command line would name port 0 in actor ids); resolves once it says where it serves.
 */
export async function serveProcess(database: string, ...args: string[]): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      cli,
      "serve",
      ...["--host", "127.0.0.1", "--port", String(port)],
      ...["--base-url", `http://127.0.0.1:${port}`, "--database", database],
      ...args,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /serving on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
