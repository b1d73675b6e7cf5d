// Federation on loopback: delivery latency (send_message on A → incoming event stored on B) and
// inbox throughput (pre-signed activities POSTed to B's shared inbox as fast as B accepts them).
// B runs in a child process; A and the load generator run here.
//   node bench/federation.bench.ts [--latency N] [--inbox N] [--concurrency C] [--burst N]

import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { signRequest } from "@fedify/fedify";
import { createAccount } from "../server/src/accounts/index.ts";
import { createActor } from "../server/src/actors/index.ts";
import { loadSigner } from "../server/src/activitypub/local-keys.ts";
import { startServer } from "../server/src/main.ts";
import { execute } from "../server/src/methods/index.ts";

const { values } = parseArgs({
  options: {
    latency: { type: "string" },
    inbox: { type: "string" },
    concurrency: { type: "string" },
    burst: { type: "string" },
  },
});
const LATENCY_N = Number(values.latency ?? 200);
const INBOX_N = Number(values.inbox ?? 3000);
const CONCURRENCY = Number(values.concurrency ?? 64);
const BURST_N = Number(values.burst ?? 1000);

const dir = mkdtempSync(join(tmpdir(), "corral-bench-"));
const bFile = join(dir, "b.sqlite");
const child = spawn(
  process.execPath,
  [
    ...(process.env.BENCH_CPU_PROF
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : []),
    new URL("./federation-server.ts", import.meta.url).pathname,
    `sqlite:${bFile}`,
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const b = JSON.parse(
  await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once("line", resolve),
  ),
) as { url: string; actorId: string };

const a = await startServer({
  port: 0,
  host: "127.0.0.1",
  database: `sqlite:${join(dir, "a.sqlite")}`,
  allowPrivateAddresses: true,
  streamCap: 1_000_000,
});
const account = await createAccount(a.services.db, {
  name: "bench",
  password: "bench-password",
  admin: true,
});
if (!account.ok) throw new Error(account.error);
const created = await createActor(a.services.db, {
  accountId: account.account.id,
  baseUrl: a.url,
  handle: "alice",
});
if (!created.ok) throw new Error(created.error);
const alice = created.actor.id;
const accountId = account.account.id;

const bDb = new DatabaseSync(bFile, { readOnly: true });
// Read incrementally, ids extracted by SQLite: parsing every event on each poll would load the
// process that also runs A.
const seenAt = new Map<string, number>();
let lastSeq = 0;
const arrivals = () => {
  const rows = bDb
    .prepare(
      `SELECT seq, json_extract(data, '$.data.raw.id') AS id, created_at FROM events WHERE stream = 'incoming' AND seq > ? ORDER BY seq`,
    )
    .all(lastSeq) as { seq: number; id: string; created_at: number }[];
  for (const row of rows) {
    seenAt.set(row.id, Number(row.created_at));
    lastSeq = Number(row.seq);
  }
  return seenAt;
};
const waitFor = async (ids: string[], timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = arrivals();
    if (ids.every((id) => seen.has(id)) || Date.now() > deadline) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
};
const note = (n: number, tag: string) => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  id: `${alice}/bench/${tag}/${n}`,
  type: "Create",
  actor: alice,
  to: [b.actorId],
  object: { type: "Note", content: `bench ${tag} ${n}` },
});

// 1. Latency: one message at a time, 20 ms apart (a warm-up message first resolves B's inbox).
await execute(a.services, {
  accountId,
  method: "send_message",
  body: { actor: alice, data: note(0, "warmup") },
});
await waitFor([note(0, "warmup").id], 10_000);
const sentAt = new Map<string, number>();
for (let n = 1; n <= LATENCY_N; n++) {
  const data = note(n, "latency");
  sentAt.set(data.id, Date.now());
  await execute(a.services, { accountId, method: "send_message", body: { actor: alice, data } });
  await new Promise((r) => setTimeout(r, 20));
}
const seen = await waitFor([...sentAt.keys()], 30_000);
const latencies = [...sentAt].map(([id, t]) => (seen.get(id) ?? NaN) - t).sort((x, y) => x - y);
const lost = latencies.filter(Number.isNaN).length;
const ok = latencies.filter((x) => !Number.isNaN(x));
console.log(
  `delivery latency over ${ok.length} messages${lost ? ` (${lost} not arrived)` : ""}: median ${ok[Math.floor(ok.length / 2)]} ms, p95 ${ok[Math.floor(ok.length * 0.95)]} ms, worst ${ok.at(-1)} ms`,
);

// 2. Inbox throughput: requests signed beforehand, so only B's work is timed.
const signer = (await loadSigner(a.services.db, alice))!;
// Plain node:http with keep-alive: undici's fetch costs the generator more than B spends per request.
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const requests: { headers: Record<string, string>; body: Buffer }[] = [];
for (let n = 0; n < INBOX_N; n++) {
  const body = JSON.stringify(note(n, "inbox"));
  const signed = await signRequest(
    new Request(`${b.url}/inbox`, {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
      body,
    }),
    signer.privateKey,
    signer.keyId,
  );
  requests.push({ headers: Object.fromEntries(signed.headers), body: Buffer.from(body) });
}
const post = (r: (typeof requests)[number]) =>
  new Promise<number>((resolve, reject) => {
    const req = request(
      `${b.url}/inbox`,
      { method: "POST", agent, headers: { ...r.headers, "Content-Length": String(r.body.length) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(r.body);
  });
let next = 0;
let failures = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < requests.length) {
      if ((await post(requests[next++]!)) !== 202) failures++;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
console.log(
  `inbox: ${INBOX_N} signed activities in ${seconds.toFixed(2)} s = ${Math.round(INBOX_N / seconds)} accepted/s (concurrency ${CONCURRENCY}${failures ? `, ${failures} not 202` : ""})`,
);

// 3. Queue throughput: many messages queued at once, until all arrived on B.
const burst = Array.from({ length: BURST_N }, (_, n) => note(n, "burst"));
const burstStart = Date.now();
await Promise.all(
  burst.map((data) =>
    execute(a.services, { accountId, method: "send_message", body: { actor: alice, data } }),
  ),
);
const queuedMs = Date.now() - burstStart;
const burstSeen = await waitFor(
  burst.map((d) => d.id),
  60_000,
);
const last = Math.max(...burst.map((d) => burstSeen.get(d.id) ?? NaN));
console.log(
  `delivery queue: ${burst.length} messages queued at once (in ${queuedMs} ms), all on B after ${last - burstStart} ms = ${Math.round(burst.length / ((last - burstStart) / 1000))} deliveries/s end to end`,
);

bDb.close();
await a.close();
child.kill("SIGTERM");
