// Counts the activities that reach one of Corral's /fe event streams (Server-Sent Events), by the
// id of each event's raw activity: how many distinct, how many twice, when the last one came.

import { request, type ClientRequest } from "node:http";

export interface StreamCounter {
  /** Resolves with the time (performance.now()) the last of ids was seen on the stream. */
  waitForAll(ids: string[], timeoutMs: number): Promise<number>;
  seen(): { distinct: number; duplicates: number };
  close(): void;
}

export function countStream(url: string, token: string, stream: string): Promise<StreamCounter> {
  const seen = new Set<string>();
  let duplicates = 0;
  let lastSeen = 0;
  let req: ClientRequest | undefined;
  const counter: StreamCounter = {
    async waitForAll(ids, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const missing = ids.filter((id) => !seen.has(id)).length;
        if (missing === 0) return lastSeen;
        if (Date.now() > deadline)
          throw new Error(
            `${missing} of ${ids.length} activities never reached the ${stream} stream`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    seen: () => ({ distinct: seen.size, duplicates }),
    close: () => req?.destroy(),
  };
  return new Promise((resolve, reject) => {
    req = request(
      `${url}/fe/account/stream/${stream}`,
      { headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream ${stream}: ${res.statusCode}`));
        res.setEncoding("utf8");
        let buffered = "";
        res.on("data", (chunk: string) => {
          buffered += chunk;
          const lines = buffered.split("\n");
          buffered = lines.pop()!;
          for (const line of lines) {
            if (line.startsWith(": connected")) resolve(counter);
            if (!line.startsWith("data: ")) continue;
            const id = (JSON.parse(line.slice(6)) as { data?: { raw?: { id?: string } } }).data?.raw
              ?.id;
            if (!id) continue;
            if (seen.has(id)) duplicates++;
            else {
              seen.add(id);
              lastSeen = performance.now();
            }
          }
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}
