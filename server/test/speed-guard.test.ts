import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, expect, it } from "vitest";

// The speed guard (issue 34) in `npm test`: bench/speed-guard.ts runs the inbox and delivery
// loads against this checkout and the reference build named in bench/speed-reference, in turn,
// and exits 1 when this checkout's server CPU per activity or per delivery is more than 10% above
// the reference's (median of paired rounds). Its figures are printed either way; bench/README.md
// tells how to move the reference.

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Runs bench/speed-guard.ts with `args`, stopped after `limitMs`; its exit code and output. */
async function runGuard(args: string[], limitMs: number) {
  const child = spawn(process.execPath, ["bench/speed-guard.ts", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // Stopped (and so are its servers) before the test's own time limit, saying so.
  const limit = setTimeout(() => {
    output += `\nspeed guard: still running after ${limitMs / 1000} s, stopped`;
    child.kill("SIGTERM");
  }, limitMs);
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  }).finally(() => clearTimeout(limit));
  return { code, output: output.trim() };
}

// On a fresh clone the reference is unpacked and, when its lock file differs, installed with its
// own `npm ci`: that takes its own time, not the measurement's.
beforeAll(async () => {
  const { code, output } = await runGuard(["--prepare"], 290_000);
  console.log(output);
  expect(code, output.slice(-3000)).toBe(0);
}, 300_000);

it("spends no more than 10% more server CPU per inbox activity and per delivery than the reference", async () => {
  // Identical code on both sides has given paired medians from 0.94 to 1.09 on a loaded machine:
  // a first run above the limit is measured once more, and only a second one above it fails.
  let run = await runGuard([], 170_000);
  console.log(run.output);
  if (run.code === 1 && /above the reference's/.test(run.output)) {
    console.log("speed guard: above the limit once; measuring again");
    run = await runGuard([], 170_000);
    console.log(run.output);
  }
  expect(run.output).toMatch(/server CPU per inbox activity: this checkout .* reference /);
  expect(run.output).toMatch(/server CPU per delivery: this checkout .* reference /);
  expect(run.code, run.output.slice(-3000)).toBe(0);
}, 360_000);
