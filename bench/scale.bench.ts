// Scale: inbox activities accepted per second by real `corral serve` processes, SQLite ×1,
// PostgreSQL ×1 and PostgreSQL web×2 + worker, on one recipient account and on 16, with the CPU
// each 1,000 cost (Corral's processes, and the PostgreSQL backends serving this database).
// Every run checks what it measured: no non-2xx answer, every activity once on its stream.
// Figures go to bench/results/scale-*.json and are printed as a table.
//   node bench/scale.bench.ts [--inbox N] [--concurrency C] [--setups sqlite,pg,pg-cluster]

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { Db } from "../server/src/db/db.ts";
import { openDatabase } from "../server/src/db/open.ts";
import { postAll } from "../server/test/cluster.ts";
import { startCorral, type CorralProcess } from "../test-kit/corral-process.ts";
import { createTestDatabase } from "../server/test/db/postgres-test-database.ts";
import { countIncoming, createInboxCast, signInboxPosts } from "../server/test/inbox-traffic.ts";

const { values } = parseArgs({
  options: {
    inbox: { type: "string" },
    concurrency: { type: "string" },
    setups: { type: "string" },
  },
});
const N = Number(values.inbox ?? 3000);
const CONCURRENCY = Number(values.concurrency ?? 64);
const SETUPS = (values.setups ?? "sqlite,pg,pg-cluster").split(",");
// Actors live on this origin; requests carry it as Host whichever process they reach.
const ORIGIN = "http://corral.bench";

interface Row {
  setup: string;
  accounts: number;
  activities: number;
  inboxPerS: number;
  non2xx: number;
  lost: number;
  doubled: number;
  corralCpuPer1000: number;
  postgresCpuPer1000: number | null;
  /** The machine's 1-minute load average when the run started: other work skews the figures. */
  load: number;
}

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
  } catch {
    return 0;
  }
}

async function postgresBackends(url: string): Promise<number[]> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const name = new URL(url).pathname.slice(1);
  const rows = await admin<{ pid: number }[]>`
    SELECT pid FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`;
  await admin.end();
  return rows.map((r) => r.pid);
}

async function measure(setup: string, accounts: number): Promise<Row> {
  let url: string;
  let drop = async () => {};
  if (setup === "sqlite") {
    url = `sqlite:${join(mkdtempSync(join(tmpdir(), "corral-scale-")), "corral.sqlite")}`;
  } else {
    const database = await createTestDatabase();
    url = database.url;
    drop = () => database.drop();
  }
  const { db } = await openDatabase(url);
  const cast = await createInboxCast(db, ORIGIN, accounts);
  const common = ["--database", url, "--base-url", ORIGIN];
  const processes: CorralProcess[] =
    setup === "pg-cluster"
      ? await Promise.all([
          startCorral({ port: 0, args: [...common, "--role", "web"] }),
          startCorral({ port: 0, args: [...common, "--role", "web"] }),
          startCorral({ port: 0, args: [...common, "--role", "worker"] }),
        ])
      : [await startCorral({ port: 0, args: common })];
  const targets = processes.slice(0, setup === "pg-cluster" ? 2 : 1).map((p) => p.url);
  try {
    const warmUp = await signInboxPosts(db, cast, ORIGIN, 200);
    await postAll(warmUp, targets, { concurrency: CONCURRENCY });
    const posts = await signInboxPosts(db, cast, ORIGIN, N);
    const backends = url.startsWith("postgres") ? await postgresBackends(url) : [];
    const pids = [...processes.map((p) => p.pid), ...backends];
    const before = pids.map(cpuSeconds);
    const load = round(loadavg()[0]!);
    const result = await postAll(posts, targets, { concurrency: CONCURRENCY });
    const used = pids.map((pid, i) => cpuSeconds(pid) - before[i]!);
    const corralCpu = used.slice(0, processes.length).reduce((a, b) => a + b, 0);
    const postgresCpu = used.slice(processes.length).reduce((a, b) => a + b, 0);
    const counts = await countIncoming(db, cast);
    return {
      setup,
      accounts,
      activities: N,
      inboxPerS: Math.round(N / result.seconds),
      non2xx: Object.values(result.failures).reduce((a, b) => a + b, 0),
      lost: posts.filter((p) => !counts.has(p.id)).length,
      doubled: posts.filter((p) => (counts.get(p.id) ?? 0) > 1).length,
      corralCpuPer1000: round((corralCpu / N) * 1000),
      postgresCpuPer1000: backends.length ? round((postgresCpu / N) * 1000) : null,
      load,
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await closeQuietly(db);
    await drop();
  }
}

const round = (x: number) => Math.round(x * 100) / 100;
const closeQuietly = (db: Db) => db.close().catch(() => {});

const rows: Row[] = [];
for (const setup of SETUPS) {
  for (const accounts of [1, 16]) {
    const row = await measure(setup, accounts);
    rows.push(row);
    console.log(
      `${setup} on ${accounts} account(s): ${row.inboxPerS} inbox/s` +
        (row.non2xx || row.lost || row.doubled
          ? ` (non-2xx ${row.non2xx}, lost ${row.lost}, doubled ${row.doubled})`
          : ""),
    );
  }
}

const label: Record<string, string> = {
  sqlite: "SQLite ×1",
  pg: "PostgreSQL ×1",
  "pg-cluster": "PostgreSQL web×2 + worker",
};
console.log(
  `\n${N} signed inbox POSTs at ${CONCURRENCY} in flight; CPU in seconds per 1,000 accepted\n`,
);
console.log(
  "| setup | accounts | inbox/s | non-2xx | lost | doubled | Corral CPU/1k | PostgreSQL CPU/1k | load |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${label[r.setup] ?? r.setup} | ${r.accounts} | ${r.inboxPerS} | ${r.non2xx} | ${r.lost} | ${r.doubled} | ${r.corralCpuPer1000} | ${r.postgresCpuPer1000 ?? "–"} | ${r.load} |`,
  );
}
const sqlite1 = rows.find((r) => r.setup === "sqlite" && r.accounts === 1);
const pg1 = rows.find((r) => r.setup === "pg" && r.accounts === 1);
if (sqlite1 && pg1) {
  console.log(
    `\nPostgreSQL ×1 on one account: ${pg1.inboxPerS} inbox/s (target ≥ 1,000), ${Math.round((pg1.inboxPerS / sqlite1.inboxPerS) * 100)}% of SQLite's (target ≥ 40%)`,
  );
}

const dir = new URL("./results/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
const file = join(dir, `scale-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ when: new Date().toISOString(), activities: N, concurrency: CONCURRENCY, rows }, null, 2)}\n`,
);
console.log(`\nwritten to ${file}`);
if (rows.some((r) => r.non2xx || r.lost || r.doubled)) process.exitCode = 1;
