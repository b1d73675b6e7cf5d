// `npm run bench`: every benchmark, one after the other, each printing its own figures.
// Speed and memory targets live here, never in timed unit tests.
import { spawnSync } from "node:child_process";

const steps = [
  ["console bench build", "npm", ["run", "build:bench", "-w", "console", "--silent"]],
  ["console (Chromium)", "node", ["bench/console.bench.ts"]],
  ["console build", "npm", ["run", "build", "--silent"]],
  [
    "stream history on a new browser (Chromium, real server)",
    "node",
    ["bench/stream-history.bench.ts"],
  ],
  ["federation (loopback)", "node", ["bench/federation.bench.ts"]],
  ["delivery and inbox vs bare Fedify (loopback)", "node", ["bench/delivery.bench.ts"]],
  [
    "delivery and inbox on PostgreSQL, one process (issue 34)",
    "node",
    ["bench/delivery.bench.ts", "--database", "pg", "--corral-only"],
  ],
  [
    "history queries, 10,000 events per stream (SQLite and PostgreSQL)",
    "node",
    ["bench/history.bench.ts"],
  ],
  [
    "scale (SQLite and PostgreSQL, one process and web×2 + worker)",
    "node",
    ["bench/scale.bench.ts"],
  ],
  [
    "Cattle Drive over WebSocket: request round trips, 1,000 events/s to 10 clients (issue 35)",
    "node",
    ["bench/cattle-drive.bench.ts"],
  ],
  [
    "recording cattle_grid's events from its broker, 1,000/s (SQLite and PostgreSQL; issue 36)",
    "node",
    ["bench/recording.bench.ts"],
  ],
  [
    "refusal record's cost to the inbox, paired with a copy without it (issue 28)",
    "node",
    ["bench/refusal-record.bench.ts"],
  ],
];

for (const [name, command, args] of steps) {
  console.log(`\n== ${name}: ${command} ${args.join(" ")}`);
  const { status } = spawnSync(command, args, { stdio: "inherit" });
  if (status !== 0) {
    console.error(`bench: ${name} failed (exit ${status})`);
    process.exit(1);
  }
}
