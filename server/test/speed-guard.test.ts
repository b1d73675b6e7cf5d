import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The speed guard (issue 34) in `npm test`: bench/speed-guard.ts runs the inbox and delivery
// loads against this checkout and the reference build named in bench/speed-reference, in turn,
// and exits 1 when this checkout's server CPU per activity or per delivery is more than 10% above
// the reference's (median of paired rounds). Its figures are printed either way; bench/README.md
// tells how to move the reference.

const root = fileURLToPath(new URL("../..", import.meta.url));

it("spends no more than 10% more server CPU per inbox activity and per delivery than the reference", async () => {
  const child = spawn(process.execPath, ["bench/speed-guard.ts"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // Stopped (and so are its servers) before the test's own time limit, saying so.
  const limit = setTimeout(() => {
    output += "\nspeed guard: still running after 170 s, stopped";
    child.kill("SIGTERM");
  }, 170_000);
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  }).finally(() => clearTimeout(limit));
  // Both figures, passing or not, in the test's output.
  console.log(output.trim());
  expect(output).toMatch(/server CPU per inbox activity: this checkout .* reference /);
  expect(output).toMatch(/server CPU per delivery: this checkout .* reference /);
  expect(code, output.slice(-3000)).toBe(0);
}, 180_000);
