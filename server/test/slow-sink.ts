// For crash tests of delivery: a loopback server hosting N actors (documents with a public key,
// so a sender can resolve their inboxes) whose inboxes count POSTs per activity id and actor, and
// answer only after `answerAfterMs`, so that work is still in flight when a sender is killed.

import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface SlowSink {
  url: string;
  actorIds: string[];
  /** Distinct (activity id, actor) pairs that arrived. */
  arrived(): number;
  /** POSTs of a pair that had already arrived. */
  duplicates(): number;
  /** POSTs read but not yet answered. */
  open(): number;
  close(): Promise<void>;
}

export async function startSlowSink(n: number, answerAfterMs: number): Promise<SlowSink> {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }) as string;
  const seen = new Set<string>();
  let duplicates = 0;
  let open = 0;
  let url = "";

  const server = createServer((req, res) => {
    const match = /^\/actors\/s(\d+)(\/inbox)?$/.exec(req.url ?? "");
    const i = match ? Number(match[1]) : -1;
    if (!match || i >= n) return void res.writeHead(404).end();
    const id = `${url}/actors/s${i}`;
    if (req.method === "GET" && !match[2]) {
      res.writeHead(200, { "Content-Type": "application/activity+json" });
      const key = { id: `${id}#main-key`, owner: id, publicKeyPem };
      const context = ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"];
      const document = { "@context": context, id, type: "Person", inbox: `${id}/inbox` };
      return void res.end(JSON.stringify({ ...document, publicKey: key }));
    }
    if (req.method !== "POST" || !match[2]) return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let activity: string | undefined;
      try {
        activity = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: string }).id;
      } catch {
        activity = undefined;
      }
      if (typeof activity !== "string") return void res.writeHead(400).end();
      // Counted as it arrives: a sender killed before the answer still delivered it once.
      const key = `${activity} ${i}`;
      if (seen.has(key)) duplicates++;
      else seen.add(key);
      open++;
      setTimeout(() => {
        open--;
        if (!res.destroyed) res.writeHead(202).end();
      }, answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    actorIds: Array.from({ length: n }, (_, i) => `${url}/actors/s${i}`),
    arrived: () => seen.size,
    duplicates: () => duplicates,
    open: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
