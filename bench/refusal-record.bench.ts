// The refusal record's cost to the inbox (issue 28: under 5% of inbox throughput, including a run
// where every second request is refused), measured paired: this checkout's Corral against a copy
// of it with the record's two calls taken out of the inbox (noteRefusal, recordAccepted), each
// under delivery.bench.ts's inbox load (--part inbox --corral-only), alternating which goes first.
// The figure is the server's CPU per inbox request (utime+stime from /proc), which the load the
// other processes put on the machine disturbs far less than the rate does; both are printed.
//   node bench/refusal-record.bench.ts [--pairs 5] [--inbox 15000] [--limit 1.05]
// The copy is made in a temporary folder (server/ copied, node_modules and console linked) and
// deleted afterwards; nothing is switchable in the server itself.

import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    pairs: { type: "string", default: "5" },
    inbox: { type: "string", default: "15000" },
    limit: { type: "string", default: "1.05" },
  },
});
const PAIRS = Number(values.pairs);
const INBOX = Number(values.inbox);
const LIMIT = Number(values.limit);
if (![PAIRS, INBOX, LIMIT].every((n) => Number.isFinite(n) && n > 0)) {
  throw new Error("refusal-record bench: --pairs, --inbox and --limit must be positive numbers");
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RECORD_CALLS = [
  "  if (answer.reason !== undefined) noteRefusal(services, request, actorId, seen, answer);\n",
  '  if (received.accounts) recordAccepted(services, hostOf(sender) ?? "?", received.accounts);\n',
];

/** A copy of this checkout's server whose inbox records nothing; its cli.ts path. */
function copyWithoutRecord(dir: string): string {
  cpSync(join(ROOT, "server"), join(dir, "server"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
  cpSync(join(ROOT, "tsconfig.base.json"), join(dir, "tsconfig.base.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  symlinkSync(join(ROOT, "console"), join(dir, "console"));
  const inbox = join(dir, "server/src/federation/inbox.ts");
  let source = readFileSync(inbox, "utf8");
  for (const call of RECORD_CALLS) {
    if (!source.includes(call)) {
      throw new Error(`refusal-record bench: inbox.ts no longer has the line ${call.trim()}`);
    }
    source = source.replace(call, "  // (the refusal record left out for this bench)\n");
  }
  writeFileSync(inbox, source);
  return join(dir, "server/src/cli.ts");
}

type Run = { cpuMs: number; perSecond: number };

/** One delivery.bench.ts inbox run; CORRAL_BENCH_CLI picks the server (none: this checkout). */
function inboxRun(refusedEvery: number, cli: string | null): Promise<Run> {
  const args = ["bench/delivery.bench.ts", "--part", "inbox", "--corral-only"];
  args.push("--inbox", String(INBOX), "--refused-every", String(refusedEvery));
  const env = { ...process.env };
  if (cli) env.CORRAL_BENCH_CLI = cli;
  else delete env.CORRAL_BENCH_CLI;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      const written = /written to (\S+\.json)/.exec(output)?.[1];
      if (code !== 0 || !written) {
        reject(new Error(`delivery.bench.ts exited ${code}:\n${output.slice(-2000)}`));
        return;
      }
      const result = JSON.parse(readFileSync(written, "utf8")) as {
        corral: { inbox: { cpuMsPerActivity: number; acceptedPerSecond: number } };
      };
      resolve({
        cpuMs: result.corral.inbox.cpuMsPerActivity,
        perSecond: result.corral.inbox.acceptedPerSecond,
      });
    });
  });
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const dir = mkdtempSync(join(tmpdir(), "corral-no-record-"));
let failed = false;
try {
  const without = copyWithoutRecord(dir);
  for (const refusedEvery of [0, 2]) {
    const ratios: number[] = [];
    const rows: string[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      const order = pair % 2 === 0 ? [null, without] : [without, null];
      const runs = new Map<string | null, Run>();
      for (const cli of order) runs.set(cli, await inboxRun(refusedEvery, cli));
      const on = runs.get(null)!;
      const off = runs.get(without)!;
      ratios.push(on.cpuMs / off.cpuMs);
      rows.push(
        `  pair ${pair + 1}: with ${on.cpuMs.toFixed(3)} ms (${Math.round(on.perSecond)}/s), ` +
          `without ${off.cpuMs.toFixed(3)} ms (${Math.round(off.perSecond)}/s), ` +
          `ratio ${(on.cpuMs / off.cpuMs).toFixed(3)}`,
      );
    }
    const ratio = median(ratios);
    const what = refusedEvery === 0 ? "every request accepted" : "every second request refused";
    console.log(`refusal record, ${what}: server CPU per inbox request, with / without`);
    for (const row of rows) console.log(row);
    console.log(`  median ratio ${ratio.toFixed(3)} (limit ${LIMIT})`);
    if (ratio > LIMIT) failed = true;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) {
  console.error("refusal-record bench: the record costs more than the limit");
  process.exit(1);
}
