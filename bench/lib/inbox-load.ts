// The inbox load: pre-signed POSTs (so only the server's work is timed) sent with a fixed number in
// flight over keep-alive connections, then a wait until every activity is known to be processed.

import { Agent, request } from "node:http";
import { signPost, type SignedPost } from "./http-signature.ts";
import { processCpuMs } from "./process-cpu.ts";
import type { Sink } from "./sink.ts";

export interface InboxResult {
  activities: number;
  rejected: number;
  acceptedPerSecond: number;
  processedPerSecond: number;
  cpuMsPerActivity: number;
  /** This process's CPU (load generator, sink, stream reader): shows when it is the bottleneck. */
  generatorCpuMsPerActivity: number;
}

export async function runInboxLoad(
  pid: number,
  posts: SignedPost[],
  concurrency: number,
  /** Resolves with the time (performance.now()) the last activity was processed. */
  processed: () => Promise<number>,
): Promise<InboxResult> {
  // Plain node:http: undici's fetch costs the generator more than the server spends per request.
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const post = (p: SignedPost) =>
    new Promise<number>((resolve, reject) => {
      const req = request(p.url, { method: "POST", agent, headers: p.headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(p.body);
    });
  let next = 0;
  let rejected = 0;
  const cpuBefore = processCpuMs(pid);
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < posts.length) {
        const status = await post(posts[next++]!);
        if (status < 200 || status > 299) rejected++;
      }
    }),
  );
  const answered = performance.now();
  const last = await processed();
  const cpuMs = processCpuMs(pid) - cpuBefore;
  const own = process.cpuUsage(ownBefore);
  agent.destroy();
  return {
    activities: posts.length,
    rejected,
    acceptedPerSecond: posts.length / ((answered - started) / 1000),
    processedPerSecond: posts.length / ((Math.max(last, answered) - started) / 1000),
    cpuMsPerActivity: cpuMs / posts.length,
    generatorCpuMsPerActivity: (own.user + own.system) / 1000 / posts.length,
  };
}

/** `count` Create activities from the sink's actors in turn, addressed to `recipient`, signed. */
export function signedCreates(
  sink: Sink,
  inbox: string,
  recipient: string,
  count: number,
  tag: string,
): { ids: string[]; posts: SignedPost[] } {
  const ids: string[] = [];
  const posts: SignedPost[] = [];
  for (let n = 0; n < count; n++) {
    const sender = sink.sender(n % sink.actorIds.length);
    const id = `${sender.actorId}/${tag}/${n}`;
    const activity = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id,
      type: "Create",
      actor: sender.actorId,
      to: [recipient],
      object: {
        id: `${id}/note`,
        type: "Note",
        attributedTo: sender.actorId,
        content: `${tag} ${n}`,
      },
    };
    ids.push(id);
    posts.push(signPost(inbox, JSON.stringify(activity), sender));
  }
  return { ids, posts };
}
