// Bare Fedify (bench/fedify-server.ts) as a child process, driven over HTTP like Corral.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { killOnExit, stopChild } from "../../test-kit/corral-process.ts";

const entry = new URL("../fedify-server.ts", import.meta.url).pathname;

export async function startFedify(args: string[] = [], nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  killOnExit(child);
  const line = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bare Fedify server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  const info = JSON.parse(line) as { url: string; actorId: string; sharedInbox: string };
  return {
    ...info,
    pid: child.pid!,
    async send(activities: { id: string; to: string[] }[]) {
      const response = await fetch(`${info.url}/bench/send`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ activities }),
      });
      if (response.status !== 202) throw new Error(`bare Fedify send: ${await response.text()}`);
    },
    async received() {
      const response = await fetch(`${info.url}/bench/received`);
      return (await response.json()) as {
        distinct: number;
        duplicates: number;
        lastAt: number;
        ids: string[];
      };
    },
    /** Resolves with the time (performance.now()) the last of ids reached the inbox listener. */
    async waitForReceived(ids: string[], timeoutMs: number): Promise<number> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = await this.received();
        const seen = new Set(got.ids);
        const missing = ids.filter((id) => !seen.has(id)).length;
        if (missing === 0) return performance.now() - (Date.now() - got.lastAt);
        if (Date.now() > deadline)
          throw new Error(
            `${missing} of ${ids.length} activities never reached bare Fedify's listener`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: () => stopChild(child),
  };
}
