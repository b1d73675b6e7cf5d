// The refusal record's own CPU per refused request, measured in-process without load noise:
// N refusals recorded through recordRefusal (as the inbox records them: one batch per turn of
// the event loop), written to a real SQLite file; CPU time of this process per refusal.
//   node bench/refusal-record.micro.ts [N]
import { startServer } from "../server/src/main.ts";
import { recordAccepted, recordRefusal } from "../server/src/receive/refusals.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const N = Number(process.argv[2] ?? 20000);
const server = await startServer({
  port: 0,
  host: "127.0.0.1",
  database: `sqlite:${join(mkdtempSync(join(tmpdir(), "corral-micro-")), "m.sqlite")}`,
});
const services = server.services;
const body = JSON.stringify({
  id: "https://there.example/a/1",
  type: "Create",
  actor: "https://there.example/u",
  to: ["https://here.example/actor/x"],
  object: { type: "Note", content: "x".repeat(300) },
});
const run = async (kind: "refused" | "accepted") => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < N; i += 32) {
    // 32 requests per turn, as 64 in flight with half refused arrive.
    for (let j = 0; j < 32; j++) {
      if (kind === "refused")
        recordRefusal(services, {
          receivedAt: Date.now(),
          client: "127.0.0.1",
          inbox: "http://127.0.0.1/inbox",
          keyId: "https://there.example/u#main-key",
          keyHost: "there.example",
          actorHost: "there.example",
          activityId: `https://there.example/a/${i + j}`,
          activityType: "Create",
          status: 401,
          reason: "digest_mismatch",
          detail: "the Digest header does not match the body",
          body: body.slice(0, 4096),
          addressedTo: ["https://here.example/actor/x"],
        });
      else recordAccepted(services, "there.example", [1]);
    }
    await new Promise((r) => setImmediate(r));
  }
  await services.tasks!.drain();
  const used = process.cpuUsage(cpu);
  console.log(
    `${kind}: ${N} recorded, ${((used.user + used.system) / N).toFixed(1)} µs CPU each (${(performance.now() - started).toFixed(0)} ms wall)`,
  );
};
await run("refused");
await run("accepted");
await run("refused");
await run("accepted");
await server.close();
