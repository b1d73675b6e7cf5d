// History queries (docs/server-guide.md#history, issue 27): with 10,000 retained events in each of an
// account's streams (and another account's beside them), every kind of GET
// /fe/account/events/{stream} and GET /fe/account/history must answer in under 200 ms, on SQLite
// and on PostgreSQL. A real in-process server answers over HTTP; the events are stored through
// the event log's own append (in groups of 500), then spread one second apart in time.
//   node bench/history.bench.ts [--events 10000] [--runs 5] [--setups sqlite,pg]

import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createAccount } from "../server/src/accounts/index.ts";
import { indexSearchGroup } from "../server/src/db/event-search.store.ts";
import { appendEvents } from "../server/src/db/events.store.ts";
import { withMeta } from "../server/src/events/event-meta.ts";
import { startServer } from "../server/src/main.ts";
import { createTestDatabase } from "../server/test/db/postgres-test-database.ts";
import { signIn } from "../test-kit/sign-in.ts";

const { values } = parseArgs({
  options: {
    events: { type: "string" },
    runs: { type: "string" },
    setups: { type: "string" },
  },
});
const EVENTS = Number(values.events ?? 10_000);
const RUNS = Number(values.runs ?? 5);
const SETUPS = (values.setups ?? "sqlite,pg").split(",");
const TARGET_MS = 200;
const BASE = Date.UTC(2026, 0, 1);
const WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet".split(" ");

function event(stream: string, n: number): object {
  const host = `peer${n % 20}.example`;
  const sender = `https://${host}/users/u${n % 50}`;
  const me = "https://corral.bench/actor/me";
  if (stream === "error") {
    return {
      message: [`https://${host}/inbox answered 500 Internal Server Error`],
      routing_key: "send_message",
      original_message_body: JSON.stringify({ actor: me, data: { type: "Note" } }),
      inbox: `https://${host}/inbox`,
      attempt: 1,
    };
  }
  const actor = stream === "incoming" ? sender : me;
  // A word that only 1 event in 1,000 carries, for a search that must look at every event.
  const text = `${WORDS[n % 10]} message ${n} ${n % 1000 === 7 ? "zanzibar" : ""} `.repeat(12);
  const raw = {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${actor}/activities/${n}`,
    type: n % 5 === 0 ? "Like" : "Create",
    actor,
    to: [stream === "incoming" ? me : sender],
    cc: ["https://www.w3.org/ns/activitystreams#Public"],
    object: {
      id: `${actor}/notes/${n}`,
      type: "Note",
      attributedTo: actor,
      content: `<p>${text}</p>`,
    },
  };
  return {
    actor: me,
    event_type: stream,
    data: { raw, parsed: { activity: { ...raw, object: raw.object.id } } },
    history_id: null,
    trigger_id: null,
    actor_info: { id: actor, handle: `@u${n % 50}@${host}`, name: null },
  };
}

async function measure(url: string, token: string, path: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    const start = performance.now();
    const response = await fetch(`${url}/fe${path}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (response.status !== 200)
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    if (run > 0) times.push(performance.now() - start); // the first warms caches and statements
  }
  return times.sort((a, b) => a - b);
}

interface Row {
  setup: string;
  query: string;
  medianMs: number;
  maxMs: number;
  ok: boolean;
}

async function runSetup(setup: string): Promise<Row[]> {
  let database: string;
  let drop = async () => {};
  if (setup === "pg") {
    const created = await createTestDatabase();
    database = created.url;
    drop = created.drop;
  } else
    database = `sqlite:${join(mkdtempSync(join(tmpdir(), "corral-history-")), "bench.sqlite")}`;
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    database,
    baseUrls: ["https://corral.bench"],
  });
  try {
    const { db } = server.services;
    const ids: number[] = [];
    for (const name of ["bench", "other"]) {
      const created = await createAccount(db, { name, password: `${name}-password`, admin: true });
      if (!created.ok) throw new Error(created.error);
      ids.push(created.account.id);
    }
    const fillStart = performance.now();
    for (const accountId of ids) {
      const count = accountId === ids[0] ? EVENTS : EVENTS / 10;
      for (const stream of ["incoming", "outgoing", "error"]) {
        for (let first = 1; first <= count; first += 500) {
          const group = [];
          for (let n = first; n < first + 500 && n <= count; n++) {
            const data = event(stream, n);
            group.push(withMeta(JSON.stringify(data), data));
          }
          await appendEvents(db, accountId, stream, group);
        }
      }
    }
    // One second apart (streams interleaved), so that time ranges mean something.
    await db.run(
      `UPDATE events SET created_at = ? + seq * 1000 + (CASE stream WHEN 'incoming' THEN 0 WHEN 'outgoing' THEN 333 ELSE 666 END)`,
      [BASE],
    );
    const stored = Math.round(performance.now() - fillStart);
    let copied = "";
    if (db.dialect === "postgres") {
      // History's search copy (made after the appends by the server's indexer; here at once, so
      // that the queries below answer from the trigram indexes as they do once it caught up).
      const copyStart = performance.now();
      while ((await indexSearchGroup(db, { wait: true })) > 0);
      copied = `, copied into the search table in ${Math.round(performance.now() - copyStart)} ms`;
      await db.run(`ANALYZE events`);
      await db.run(`ANALYZE event_search`);
    } else await db.run(`ANALYZE`);
    console.log(`${setup}: stored ${EVENTS} events per stream in ${stored} ms${copied}`);
    const token = await signIn(server, "bench");
    const mid = new Date(BASE + (EVENTS / 2) * 1000).toISOString();
    const later = new Date(BASE + (EVENTS / 2 + 600) * 1000).toISOString();
    const firstPage = (await (
      await fetch(`${server.url}/fe/account/events/all?limit=100`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { next: string };
    const { events: oldest } = (await (
      await fetch(`${server.url}/fe/account/events/incoming?limit=1&after=0`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { events: { history_id: string }[] };
    const queries: [string, string][] = [
      ["incoming, newest 100", "/account/events/incoming"],
      ["incoming, before the middle", `/account/events/incoming?before=${EVENTS / 2}`],
      ["incoming, after the oldest", "/account/events/incoming?after=1"],
      ["incoming, limit 500", "/account/events/incoming?limit=500"],
      ["incoming, one by id", `/account/events/incoming?id=${EVENTS / 2}`],
      ["all, newest 100", "/account/events/all"],
      ["all, second page (cursor)", `/account/events/all?before=${firstPage.next}`],
      ["all, 10 minutes in the middle", `/account/events/all?since=${mid}&until=${later}`],
      ["all, text in 1 of 1,000", "/account/events/all?q=ZANZIBAR"],
      ["all, text in every event", "/account/events/all?q=message"],
      ["all, text in none", "/account/events/all?q=nowhere-at-all"],
      ["all, type Like", "/account/events/all?type=Like"],
      ["all, one actor", "/account/events/all?actor=https://peer7.example/users/u7"],
      ["all, one host", "/account/events/all?host=peer3.example"],
      ["all, host and text", "/account/events/all?host=peer3.example&q=zanzibar"],
      ["history (cattle_grid), newest 10", "/account/history"],
      [
        "history (cattle_grid), after the oldest",
        `/account/history?start_from=${oldest[0]!.history_id}`,
      ],
    ];
    const rows: Row[] = [];
    for (const [query, path] of queries) {
      const times = await measure(server.url, token, path);
      const medianMs = times[Math.floor(times.length / 2)]!;
      const maxMs = times.at(-1)!;
      rows.push({
        setup,
        query,
        medianMs: Math.round(medianMs * 10) / 10,
        maxMs: Math.round(maxMs * 10) / 10,
        ok: medianMs < TARGET_MS,
      });
    }
    return rows;
  } finally {
    await server.close();
    await drop();
  }
}

const load = loadavg()[0]!;
const rows: Row[] = [];
for (const setup of SETUPS) rows.push(...(await runSetup(setup)));
console.log(
  `\nhistory queries, ${EVENTS} events per stream, median of ${RUNS} (load ${load.toFixed(1)})`,
);
console.log(["setup", "query", "median ms", "max ms", `< ${TARGET_MS} ms`].join(" | "));
for (const row of rows)
  console.log([row.setup, row.query, row.medianMs, row.maxMs, row.ok ? "yes" : "NO"].join(" | "));
mkdirSync("bench/results", { recursive: true });
const file = `bench/results/history-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
writeFileSync(file, JSON.stringify({ events: EVENTS, runs: RUNS, load, rows }, null, 2));
console.log(`written to ${file}`);
if (rows.some((row) => !row.ok)) {
  console.error(
    `history bench: ${rows.filter((r) => !r.ok).length} queries took ${TARGET_MS} ms or more`,
  );
  process.exit(1);
}
