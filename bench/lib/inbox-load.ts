// The inbox load: pre-signed POSTs (so only the server's work is timed) sent with a fixed number in
// flight over keep-alive connections, then a wait until every activity is known to be processed.
// Each POST is written as bytes made before the clock starts, on a plain TCP socket, and of each
// answer only the status line and the framing (Content-Length, chunked, Connection: close) are
// read: node:http's client cost the generator 0.15-0.20 ms of CPU per request on the cores the
// server under test runs on (bench/README.md), this about a third of that.

import { connect, type Socket } from "node:net";
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
  const requests = posts.map(requestBytes);
  const target = new URL(posts[0]?.url ?? "http://127.0.0.1/");
  const connections = Array.from(
    { length: Math.min(concurrency, posts.length) },
    () => new Connection(target.hostname, Number(target.port || 80)),
  );
  let next = 0;
  let rejected = 0;
  const cpuBefore = processCpuMs(pid);
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  try {
    await Promise.all(
      connections.map(async (connection) => {
        while (next < requests.length) {
          const status = await connection.send(requests[next++]!);
          if (status < 200 || status > 299) rejected++;
        }
      }),
    );
  } finally {
    for (const connection of connections) connection.close();
  }
  const answered = performance.now();
  const last = await processed();
  const cpuMs = processCpuMs(pid) - cpuBefore;
  const own = process.cpuUsage(ownBefore);
  return {
    activities: posts.length,
    rejected,
    acceptedPerSecond: posts.length / ((answered - started) / 1000),
    processedPerSecond: posts.length / ((Math.max(last, answered) - started) / 1000),
    cpuMsPerActivity: cpuMs / posts.length,
    generatorCpuMsPerActivity: (own.user + own.system) / 1000 / posts.length,
  };
}

/** The whole HTTP/1.1 request: request line, the signed headers, the body. */
function requestBytes(post: SignedPost): Buffer {
  const url = new URL(post.url);
  let head = `POST ${url.pathname}${url.search} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(post.headers)) head += `${name}: ${value}\r\n`;
  return Buffer.concat([Buffer.from(`${head}Connection: keep-alive\r\n\r\n`, "latin1"), post.body]);
}

const HEAD_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");

/** One keep-alive connection, one request at a time; reconnects after `Connection: close`. */
class Connection {
  #socket: Socket | undefined;
  #buffered: Buffer | undefined;
  #waiting: { resolve(status: number): void; reject(error: Error): void } | undefined;

  readonly host: string;
  readonly port: number;

  constructor(host: string, port: number) {
    this.host = host;
    this.port = port;
  }

  /** Writes one request; resolves with its answer's status once the whole answer is read. */
  send(request: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      (this.#socket ??= this.#open()).write(request);
    });
  }

  close() {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    this.#buffered = undefined;
    socket.on("data", (chunk: Buffer) => this.#read(chunk));
    const fail = (error: Error) => {
      if (this.#socket === socket) this.#socket = undefined;
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.reject(error);
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("the server closed the connection before answering")));
    return socket;
  }

  #read(chunk: Buffer) {
    const data = this.#buffered ? Buffer.concat([this.#buffered, chunk]) : chunk;
    const headEnd = data.indexOf(HEAD_END);
    if (headEnd < 0) return void (this.#buffered = data);
    const head = data.toString("latin1", 0, headEnd);
    const bodyEnd = answerEnd(head, data, headEnd + 4);
    if (bodyEnd < 0) return void (this.#buffered = data);
    this.#buffered = bodyEnd < data.length ? data.subarray(bodyEnd) : undefined;
    if (/\r\nconnection:\s*close/i.test(head)) {
      const socket = this.#socket;
      this.#socket = undefined;
      socket?.removeAllListeners("close").destroy();
    }
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve(Number(head.slice(9, 12)));
  }
}

/** Where the answer whose head is `head` ends in `data` (its body from `at`); -1: not yet read. */
function answerEnd(head: string, data: Buffer, at: number): number {
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) return data.length >= at + Number(length[1]) ? at + Number(length[1]) : -1;
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return at; // 204, 304: no body
  for (;;) {
    const line = data.indexOf(CRLF, at);
    if (line < 0) return -1;
    const size = parseInt(data.toString("latin1", at, line), 16);
    if (size === 0) {
      const end = data.indexOf(HEAD_END, line);
      return end < 0 ? -1 : end + 4;
    }
    at = line + 2 + size + 2;
    if (at > data.length) return -1;
  }
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
