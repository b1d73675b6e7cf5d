// A loopback server hosting N sink actors: actor documents with a public key (so a server can
// resolve them by id and verify what they sign), and one inbox each that counts POSTs per
// activity id and recipient. It checks that every POST carries a Signature header and records
// which kind (draft-cavage, or RFC 9421 with Signature-Input), and counts the GETs of each actor
// document. It verifies signatures only when
// asked (sink-verify.ts), so that by default the sink costs the shared CPU as little as possible.

import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createSinkVerifier } from "./sink-verify.ts";

export interface SinkTally {
  posts: number;
  duplicates: number;
  unsigned: number;
  cavage: number;
  rfc9421: number;
  unreadable: number;
  /** With verification on: POSTs whose signature verified, and those that did not. */
  verified: number;
  unverified: number;
  /** GETs of actor documents, in all and of the most fetched actor. */
  actorGets: number;
  maxGetsPerActor: number;
}

export interface Sink {
  url: string;
  actorIds: string[];
  /** Signing material of sink actor i (all share one key pair: generating 500 would take long). */
  sender(i: number): { actorId: string; keyId: string; privateKey: KeyObject };
  /** Resolves with the time (performance.now()) the last of ids × N deliveries arrived. */
  waitForAll(ids: string[], timeoutMs: number): Promise<number>;
  /** Resolves once every signature check started so far has ended. */
  checked(): Promise<void>;
  tally(): SinkTally;
  close(): Promise<void>;
}

export async function startSink(n: number, options: { verify?: boolean } = {}): Promise<Sink> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }) as string;
  const perActivity = new Map<string, { counts: Uint16Array; distinct: number }>();
  const tally: SinkTally = {
    posts: 0,
    duplicates: 0,
    unsigned: 0,
    cavage: 0,
    rfc9421: 0,
    unreadable: 0,
    verified: 0,
    unverified: 0,
    actorGets: 0,
    maxGetsPerActor: 0,
  };
  const getsPerActor = new Uint32Array(n);
  let verify: ReturnType<typeof createSinkVerifier> | undefined;
  const checking = new Set<Promise<void>>();
  let lastArrival = 0;
  let url = "";

  const actorDocument = (i: number) => {
    const id = `${url}/actors/s${i}`;
    return {
      "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
      id,
      type: "Person",
      preferredUsername: `s${i}`,
      inbox: `${id}/inbox`,
      outbox: `${id}/outbox`,
      publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem },
    };
  };

  const receive = (i: number, req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      tally.posts++;
      if (!req.headers.signature) tally.unsigned++;
      else if (req.headers["signature-input"]) tally.rfc9421++;
      else tally.cavage++;
      const body = Buffer.concat(chunks);
      // Answered 202 whatever the outcome: a refusal would make the sender try again.
      if (verify) {
        const check = verify(req, body).then(
          (ok) => void (ok ? tally.verified++ : tally.unverified++),
        );
        checking.add(check);
        void check.finally(() => checking.delete(check));
      }
      let id: unknown;
      try {
        id = (JSON.parse(body.toString("utf8")) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      if (typeof id !== "string") {
        tally.unreadable++;
        res.writeHead(400).end();
        return;
      }
      let entry = perActivity.get(id);
      if (!entry) perActivity.set(id, (entry = { counts: new Uint16Array(n), distinct: 0 }));
      if (entry.counts[i]++ === 0) {
        entry.distinct++;
        lastArrival = performance.now();
      } else tally.duplicates++;
      res.writeHead(202).end();
    });
  };

  const server = createServer((req, res) => {
    const match = /^\/actors\/s(\d+)(\/inbox)?$/.exec(req.url ?? "");
    const i = match ? Number(match[1]) : -1;
    if (!match || i >= n) return void res.writeHead(404).end();
    if (req.method === "POST" && match[2]) return receive(i, req, res);
    if (req.method === "GET" && !match[2]) {
      tally.actorGets++;
      tally.maxGetsPerActor = Math.max(tally.maxGetsPerActor, ++getsPerActor[i]!);
      res.writeHead(200, { "Content-Type": "application/activity+json" });
      return void res.end(JSON.stringify(actorDocument(i)));
    }
    res.writeHead(405).end();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (options.verify) verify = createSinkVerifier(url);
  const actorIds = Array.from({ length: n }, (_, i) => `${url}/actors/s${i}`);

  return {
    url,
    actorIds,
    sender: (i) => ({ actorId: actorIds[i]!, keyId: `${actorIds[i]}#main-key`, privateKey }),
    async waitForAll(ids, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const arrived = ids.reduce((sum, id) => sum + (perActivity.get(id)?.distinct ?? 0), 0);
        if (arrived === ids.length * n) return lastArrival;
        if (Date.now() > deadline)
          throw new Error(
            `only ${arrived} of ${ids.length * n} deliveries arrived in ${timeoutMs} ms`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    checked: async () => void (await Promise.all(checking)),
    tally: () => ({ ...tally }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
