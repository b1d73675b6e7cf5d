import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { prebuildVenvs, venvFolder, venvReady } from "../../../test-peers/python-venv.ts";

// The helper every Python peer of the tests stands on (test-peers/python-venv.ts).

const helper = fileURLToPath(new URL("../../../test-peers/python-venv.ts", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "corral-venv-"));
const built: string[] = [];

afterAll(() => {
  for (const dir of built)
    for (const path of [dir, `${dir}.log`, `${dir}.lock`])
      rmSync(path, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

/** `ensureVenv(file)` in a process of its own: its stdout (the folder) and stderr. */
function ensureInProcess(file: string): Promise<{ stdout: string; stderr: string }> {
  const script = `import { ensureVenv } from ${JSON.stringify(helper)};
process.stdout.write(await ensureVenv(process.argv[1]));`;
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script, file],
      { timeout: 120_000 },
      (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve({ stdout, stderr })),
    ),
  );
}

describe("ensureVenv", () => {
  it("builds one virtualenv for two processes asking at once, then reuses it", async () => {
    // Nothing to install: what is tested is the folder, the lock and the reuse, not pip.
    const requirements = join(folder, "requirements.txt");
    writeFileSync(requirements, `# the venv helper's own test ${process.pid} ${Date.now()}\n`);

    const [first, second] = await Promise.all([
      ensureInProcess(requirements),
      ensureInProcess(requirements),
    ]);
    built.push(first.stdout);
    expect(second.stdout).toBe(first.stdout);
    expect(existsSync(join(first.stdout, "bin", "python"))).toBe(true);
    // The build is marked ready only once complete; the lock is gone.
    expect(existsSync(join(first.stdout, ".ready"))).toBe(true);

    const again = await ensureInProcess(requirements);
    expect(again).toEqual({ stdout: first.stdout, stderr: "" });
    expect(existsSync(`${first.stdout}.lock`)).toBe(false);
  }, 120_000);
});

describe("prebuildVenvs", () => {
  it("builds every missing virtualenv at once in the background, and its stop ends a build under way", async () => {
    const tag = `${process.pid} ${Date.now()}`;
    const quick = [1, 2].map((n) => {
      const file = join(folder, `quick-${n}.txt`);
      writeFileSync(file, `# nothing to install ${n} ${tag}\n`);
      return file;
    });
    // A package index that takes the connection and never answers: pip waits on it.
    const sockets: Socket[] = [];
    const index = createServer((socket) => sockets.push(socket));
    await new Promise<void>((listening) => index.listen(0, "127.0.0.1", listening));
    const port = (index.address() as { port: number }).port;
    const hanging = join(folder, "hanging.txt");
    writeFileSync(
      hanging,
      `# ${tag}\n--index-url http://127.0.0.1:${port}/simple\ncorral-never-answered==1.0\n`,
    );
    try {
      const stop = prebuildVenvs({ files: [...quick, hanging] });
      // Returned at once; the quick ones get built, the other waits on its index.
      await expect
        .poll(() => quick.every(venvReady), { timeout: 60_000, interval: 250 })
        .toBe(true);
      await expect
        .poll(() => sockets.length, { timeout: 60_000, interval: 250 })
        .toBeGreaterThan(0);
      expect(venvReady(hanging)).toBe(false);
      built.push(...[...quick, hanging].map(venvFolder));
      await stop();
      expect(venvReady(hanging)).toBe(false);
      // Its lock is freed: the next run builds it again instead of waiting.
      expect(existsSync(`${venvFolder(hanging)}.lock`)).toBe(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      index.close();
    }
  }, 120_000);
});
