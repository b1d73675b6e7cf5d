// A loopback server hosting N sink actors: actor documents with a public key (so a server can
// resolve them by id and verify what they sign), and one inbox each that counts POSTs per
// activity id and recipient. It checks that every POST carries a Signature header and records
// which kind (draft-cavage, or RFC 9421 with Signature-Input), and counts the GETs of each actor
// document. It verifies signatures only when asked (sink-verify.ts), so that by default the sink
// costs the shared CPU as little as possible: for the same reason it speaks HTTP/1.1 on plain
// sockets (serveHttp() below), not through node:http, whose request and response objects and
// streams cost about as much CPU per delivery as the server's own main thread spends on sending
// it (bench/README.md).

import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type AddressInfo, type Socket } from "node:net";
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

  // Cached per actor: the sink answers each GET with the same bytes.
  const documents = new Map<number, string>();
  const documentAnswer = (i: number) => {
    let answer = documents.get(i);
    if (answer === undefined) {
      const body = JSON.stringify(actorDocument(i));
      answer = `HTTP/1.1 200 OK\r\nContent-Type: application/activity+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      documents.set(i, answer);
    }
    return answer;
  };

  /** One POST to sink actor i's inbox: counted, its signature's kind noted; the answer. */
  const receive = (i: number, request: Request): string => {
    const { headers, body } = request;
    tally.posts++;
    if (!headers.signature) tally.unsigned++;
    else if (headers["signature-input"]) tally.rfc9421++;
    else tally.cavage++;
    // Answered 202 whatever the outcome: a refusal would make the sender try again.
    if (verify) {
      const check = verify(request.method, request.target, headers, body).then(
        (ok) => void (ok ? tally.verified++ : tally.unverified++),
      );
      checking.add(check);
      void check.finally(() => checking.delete(check));
    }
    const id = topLevelId(body);
    if (id === undefined) {
      tally.unreadable++;
      return BAD_REQUEST;
    }
    let entry = perActivity.get(id);
    if (!entry) perActivity.set(id, (entry = { counts: new Uint16Array(n), distinct: 0 }));
    if (entry.counts[i]++ === 0) {
      entry.distinct++;
      lastArrival = performance.now();
    } else tally.duplicates++;
    return ACCEPTED;
  };

  const answer = (request: Request): string => {
    const match = /^\/actors\/s(\d+)(\/inbox)?$/.exec(request.target);
    const i = match ? Number(match[1]) : -1;
    if (!match || i >= n) return NOT_FOUND;
    if (request.method === "POST" && match[2]) return receive(i, request);
    if (request.method === "GET" && !match[2]) {
      tally.actorGets++;
      tally.maxGetsPerActor = Math.max(tally.maxGetsPerActor, ++getsPerActor[i]!);
      return documentAnswer(i);
    }
    return NOT_ALLOWED;
  };

  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.setNoDelay(true);
    serveHttp(socket, answer);
  });
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
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The top-level "id" of a JSON object, read without parsing the rest: a delivery's body names
 * every recipient (25 KB for 500 sink actors), and JSON.parse of all of it was a fifth of the
 * sink's CPU. Strings (escapes included) and nested objects and arrays before it are skipped as
 * JSON has them; undefined when the body is no object or has no string "id" at its top level.
 */
export function topLevelId(body: Uint8Array): string | undefined {
  let i = 0;
  while (isSpace(body[i])) i++;
  if (body[i] !== 0x7b) return undefined; // {
  let depth = 1;
  let keyNext = true;
  for (i++; i < body.length; i++) {
    const c = body[i];
    if (c === 0x22) {
      const end = stringEnd(body, i);
      if (end === -1) return undefined;
      if (depth !== 1 || !keyNext) {
        i = end;
        continue;
      }
      const isId = end - i === 3 && body[i + 1] === 0x69 && body[i + 2] === 0x64; // "id"
      let j = end + 1;
      while (isSpace(body[j])) j++;
      if (body[j] !== 0x3a) return undefined; // :
      j++;
      while (isSpace(body[j])) j++;
      if (isId) {
        if (body[j] !== 0x22) return undefined;
        const valueEnd = stringEnd(body, j);
        if (valueEnd === -1) return undefined;
        return JSON.parse(
          Buffer.from(body.buffer, body.byteOffset + j, valueEnd + 1 - j).toString("utf8"),
        ) as string;
      }
      keyNext = false;
      i = j - 1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 1) keyNext = true;
  }
  return undefined;
}

/** The index of the quote that ends the JSON string opened at `start`, or -1. */
function stringEnd(body: Uint8Array, start: number): number {
  for (let from = start + 1; ;) {
    const quote = body.indexOf(0x22, from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (body[quote - 1 - backslashes] === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

const ACCEPTED = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
const NOT_FOUND = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
const NOT_ALLOWED = "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n";
const LENGTH_REQUIRED =
  "HTTP/1.1 411 Length Required\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

interface Request {
  method: string;
  /** The path as sent (the sink's URLs have no query). */
  target: string;
  /** By lower-case name; a repeated header's values joined by ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * HTTP/1.1 on a socket, just enough for the sink: requests with a Content-Length body (or none),
 * kept alive, pipelined ones answered in order; `answer` gives each answer's bytes. A request
 * that sends its body chunked is answered 411 and the connection closed (no sender here does).
 */
function serveHttp(socket: Socket, answer: (request: Request) => string) {
  let pending: Buffer | null = null;
  socket.on("data", (chunk: Buffer) => {
    const data: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
    let offset = 0;
    let out = "";
    let close = false;
    while (!close) {
      const end = data.indexOf("\r\n\r\n", offset, "latin1");
      if (end === -1) break;
      const lines = data.toString("latin1", offset, end).split("\r\n");
      const [method = "", target = ""] = lines[0]!.split(" ");
      const headers: Record<string, string> = {};
      for (let l = 1; l < lines.length; l++) {
        const line = lines[l]!;
        const colon = line.indexOf(":");
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
      }
      if (headers["transfer-encoding"]) {
        out += LENGTH_REQUIRED;
        close = true;
        offset = data.length;
        break;
      }
      const length = Number(headers["content-length"] ?? 0);
      const bodyStart = end + 4;
      if (data.length < bodyStart + length) break; // the rest of the body is still on its way
      offset = bodyStart + length;
      out += answer({ method, target, headers, body: data.subarray(bodyStart, offset) });
      if (headers.connection?.toLowerCase() === "close") close = true;
    }
    pending = offset < data.length ? data.subarray(offset) : null;
    if (out) socket.write(out);
    if (close) socket.end();
  });
}
