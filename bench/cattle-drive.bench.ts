// Cattle Drive over WebSocket (issue 35): a request answered in under 50 ms p99, and 1,000 events
// a second reaching 10 connected clients with nothing lost. The server runs in this process
// (`startServer` on a fresh SQLite file, as `npm start` does); the clients run in a child process
// (lib/drive-clients.ts) with the `mqtt` package.
//   node bench/cattle-drive.bench.ts [--requests 2000] [--rate 1000] [--seconds 10] [--clients 10]

import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { createAccount } from "../server/src/accounts/index.ts";
import { startServer } from "../server/src/main.ts";

const { values } = parseArgs({
  options: {
    requests: { type: "string" },
    rate: { type: "string" },
    seconds: { type: "string" },
    clients: { type: "string" },
  },
});
const REQUESTS = Number(values.requests ?? 2000);
const RATE = Number(values.rate ?? 1000);
const SECONDS = Number(values.seconds ?? 10);
const CLIENTS = Number(values.clients ?? 10);
const P99_TARGET_MS = 50;
const CLIENTS_SCRIPT = join(import.meta.dirname, "lib/drive-clients.ts");

const dir = mkdtempSync(join(tmpdir(), "corral-drive-bench-"));
const server = await startServer({
  host: "127.0.0.1",
  port: 0,
  database: `sqlite:${join(dir, "corral.sqlite")}`,
  logLevel: "warning",
  // One client asks as fast as it is answered: above the per-account request bound (100/s).
  mqttLimits: { requestsPerSecond: 1_000_000, requestBurst: 1_000_000 },
});
const created = await createAccount(server.services.db, {
  name: "bench",
  password: "bench-password",
  admin: true,
});
if (!created.ok) throw new Error(`account: ${created.error}`);
const accountId = created.account.id;
const url = `${server.url.replace("http", "ws")}/ws`;

/** Runs the client script; calls onLine for each line but the last, resolves with the last. */
function clients(args: string[], onLine: (line: string) => void = () => {}): Promise<string> {
  const child = spawn(process.execPath, [CLIENTS_SCRIPT, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let last = "";
  createInterface({ input: child.stdout }).on("line", (line) => {
    last = line;
    onLine(line);
  });
  return new Promise((done, fail) =>
    child.once("exit", (code) =>
      code === 0 ? done(last) : fail(new Error(`drive-clients exited ${code}`)),
    ),
  );
}

let failed = false;
console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);

// 1. Request round trips, one after another.
const latency = JSON.parse(
  await clients(["latency", url, "bench", "bench-password", String(REQUESTS)]),
) as { p50: number; p99: number; max: number };
const latencyOk = latency.p99 < P99_TARGET_MS;
failed ||= !latencyOk;
console.log(
  `request/info round trip over ${REQUESTS}: p50 ${latency.p50.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms, max ${latency.max.toFixed(2)} ms (target p99 < ${P99_TARGET_MS} ms: ${latencyOk ? "met" : "NOT MET"})`,
);

// 2. RATE events a second for SECONDS to CLIENTS connected clients.
const total = RATE * SECONDS;
let firstAt = 0;
let lastAppendAt = 0;
const fanout = clients(
  ["fanout", url, "bench", "bench-password", String(CLIENTS), String(total)],
  (line) => {
    if (line !== "ready") return;
    firstAt = Date.now();
    void appendAtRate();
  },
);
async function appendAtRate() {
  const appends: Promise<number>[] = [];
  for (let n = 0; n < total; n++) {
    // Paced: event n is appended no earlier than n/RATE seconds after the start.
    const due = firstAt + (n * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    appends.push(
      server.services.events.append(accountId, "incoming", {
        actor: "http://127.0.0.1/actor/bench",
        event_type: "incoming",
        data: {
          raw: {
            "@context": "https://www.w3.org/ns/activitystreams",
            type: "Create",
            id: `https://peer.example/activities/${n}`,
            actor: "https://peer.example/users/u",
            n,
          },
          parsed: {},
        },
        history_id: null,
        trigger_id: null,
      }),
    );
  }
  await Promise.all(appends);
  lastAppendAt = Date.now();
}
const result = JSON.parse(await fanout) as {
  clients: { received: number; duplicates: number; withoutCorrelation: number }[];
  lastAt: number;
};
const lost = result.clients.reduce((sum, c) => sum + (total - c.received), 0);
const doubled = result.clients.reduce((sum, c) => sum + c.duplicates, 0);
const withoutCorrelation = result.clients.reduce((sum, c) => sum + c.withoutCorrelation, 0);
const appendRate = total / ((lastAppendAt - firstAt) / 1000);
const deliveredRate = total / ((result.lastAt - firstAt) / 1000);
const lag = result.lastAt - lastAppendAt;
const fanoutOk =
  lost === 0 && doubled === 0 && withoutCorrelation === 0 && deliveredRate >= RATE * 0.95;
failed ||= !fanoutOk;
console.log(
  `${total} events at ${RATE}/s to ${CLIENTS} clients: appended at ${appendRate.toFixed(0)}/s, each client's last arrival ${lag} ms after the last append (${deliveredRate.toFixed(0)} events/s reached every client); lost ${lost}, doubled ${doubled}, without CorrelationData ${withoutCorrelation} (target ≥ ${RATE * 0.95}/s, none lost: ${fanoutOk ? "met" : "NOT MET"})`,
);

await server.close();
process.exit(failed ? 1 : 0);
