import { Server, STATUS_CODES, type RequestListener } from "node:http";
import type { Socket } from "node:net";
import { securityHeaderValues } from "../web/security-headers.ts";
import { MAX_INBOX_BODY_BYTES, type InboxAnswer, type InboxRequest } from "./inbox.ts";
import type { InboxListener, InboxTarget } from "./inbox-listener.ts";

// Inbox POSTs read off the connection, before Node's HTTP server
// (docs/adr/0019-inbox-read-before-node-http.md). Under inbox load nearly every request is one,
// and Node's HTTP machinery (the parser's callbacks, IncomingMessage and ServerResponse as streams,
// their events and ticks) cost more CPU per request than the rest of the request's way through
// Node: in a bare server answering the bench's POSTs, 70 µs against 33 µs on plain sockets.
//
// Every connection starts here. A request is answered here only when it is plainly an inbox POST
// spelt the strict way: `POST <an inbox path> HTTP/1.1`, header names tokens, values without
// control characters, no name twice, one Content-Length up to 1 MiB, no Transfer-Encoding,
// Expect or Upgrade, a plain Host, `Connection` absent or keep-alive. Anything else, from the
// first byte that is not, goes to Node's HTTP server with every byte not yet answered, and the
// connection stays Node's from then on: a browser's first GET goes there at once. So what this
// reads it fully understands, and what it does not, Node reads as if it had read it all along.
// Requests on a connection are answered one at a time, in order (pipelined ones wait in the
// buffer). Node's time limits apply as Node applies them: a connection idle after an answer for
// the server's keepAliveTimeout is closed; one whose request has not arrived whole within its
// headersTimeout gets 408 and is closed.

/** The most a request head may take here (Node's default maxHeaderSize); beyond it, Node's. */
const MAX_HEAD_BYTES = 16 * 1024;
/** What a connection buffers while its request is being answered before it is no longer read. */
const MAX_WAITING_BYTES = MAX_HEAD_BYTES + MAX_INBOX_BODY_BYTES;
const POST = Buffer.from("POST /", "latin1");
const HEAD_END = Buffer.from("\r\n\r\n", "latin1");
const REQUEST_LINE = /^POST ([\x21-\x7e]+) HTTP\/1\.1$/;
/** Which characters (codes below 128) a header name may hold: RFC 9110's tchar. */
const TOKEN = Array.from({ length: 128 }, (_, code) =>
  /[!#$%&'*+.^_`|~0-9A-Za-z-]/.test(String.fromCharCode(code)),
);
/** What Node refuses in a head: a control character other than HTAB, a CR or LF not in CRLF. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNUSUAL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)|(?<!\r)\n/;
const SWEEP_MS = 1000;
const isBlank = (code: number) => code === 0x20 || code === 0x09;

export interface InboxConnectionOptions {
  /** The inbox's parts (inbox-listener.ts): which targets are inboxes, how one is answered. */
  inbox: Pick<InboxListener, "target" | "answer">;
  /** Called with a request's X-Forwarded-For, as the HTTP listener is (the proxy warning). */
  forwardedFor?(value: string): void;
}

/**
 * Node's HTTP server, but each connection's inbox POSTs are answered by inbox-connection.ts
 * once `inbox(…)` has been given; everything else is Node's as usual.
 */
export class InboxHttpServer extends Server {
  readonly #connections = new Set<InboxConnection>();
  readonly #nodeConnection: (socket: Socket) => void;
  #options: InboxConnectionOptions | undefined;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(listener: RequestListener) {
    super(listener);
    // Node's own handler of a new connection (the only 'connection' listener of a new Server):
    // called for a connection once it is handed over.
    const [node] = this.listeners("connection") as ((socket: Socket) => void)[];
    if (this.listenerCount("connection") !== 1 || node === undefined)
      throw new Error("Node's HTTP server has an unexpected connection listener");
    this.#nodeConnection = node;
    this.removeListener("connection", node);
    this.on("connection", (socket: Socket) => this.#accept(socket));
  }

  /** From now on inbox POSTs are answered on the connection. */
  inbox(options: InboxConnectionOptions) {
    this.#options = options;
  }

  override closeIdleConnections(): void {
    for (const connection of this.#connections) connection.closeIfIdle();
    super.closeIdleConnections();
  }

  override closeAllConnections(): void {
    for (const connection of this.#connections) connection.destroy();
    super.closeAllConnections();
  }

  #accept(socket: Socket) {
    const options = this.#options;
    if (!options) return this.#nodeConnection.call(this, socket);
    const connection = new InboxConnection(socket, options, this, {
      handOver: (buffered) => {
        this.#forget(connection);
        this.#nodeConnection.call(this, socket);
        // Synchronously, before the loop reads anything more: Node parses these bytes first.
        if (buffered !== null) socket.emit("data", buffered);
      },
      closed: () => this.#forget(connection),
    });
    this.#connections.add(connection);
    this.#sweeper ??= setInterval(() => {
      const now = performance.now();
      for (const each of this.#connections) each.sweep(now);
    }, SWEEP_MS).unref();
  }

  #forget(connection: InboxConnection) {
    this.#connections.delete(connection);
    if (this.#connections.size === 0 && this.#sweeper !== undefined) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  }
}

/** A request head read here: an inbox POST, whole and plain. */
interface Head {
  target: InboxTarget;
  headers: Map<string, string>;
  /** Where its body starts in the buffer, and how long it is. */
  bodyAt: number;
  length: number;
}

class InboxConnection {
  readonly #socket: Socket;
  readonly #options: InboxConnectionOptions;
  readonly #server: Server;
  readonly #events: { handOver(buffered: Buffer | null): void; closed(): void };
  #buffered: Buffer | null = null;
  /** The head of the request whose body is still arriving. */
  #head: Head | undefined;
  /** A request is being answered: what arrives meanwhile waits. */
  #busy = false;
  #ended = false;
  #closing = false;
  /** Whether a request was answered: before, Node's headersTimeout applies, after, keep-alive's. */
  #answered = false;
  /** performance.now() since when the connection has been idle, or its request arriving. */
  #since = performance.now();
  readonly #onData = (chunk: Buffer) => {
    if (this.#buffered === null) {
      this.#buffered = chunk;
      this.#since = performance.now();
    } else this.#buffered = Buffer.concat([this.#buffered, chunk]);
    if (!this.#busy) this.#next();
    // While an answer is awaited, what a client sends on is kept up to one request's worth (the
    // next request, pipelined); past that the connection is not read until the answer is out.
    else if (this.#buffered.length > MAX_WAITING_BYTES) this.#socket.pause();
  };
  readonly #onEnd = () => {
    this.#ended = true;
    if (!this.#busy) this.#socket.end();
  };
  readonly #onClose = () => {
    this.#detach();
    this.#events.closed();
  };
  // Errors (a reset) end in 'close'; without a listener one would be thrown.
  readonly #onError = () => {};

  constructor(
    socket: Socket,
    options: InboxConnectionOptions,
    server: Server,
    events: { handOver(buffered: Buffer | null): void; closed(): void },
  ) {
    this.#socket = socket;
    this.#options = options;
    this.#server = server;
    this.#events = events;
    socket.on("data", this.#onData);
    socket.on("end", this.#onEnd);
    socket.on("close", this.#onClose);
    socket.on("error", this.#onError);
  }

  /** Node's limits: an idle connection closed, a request too slow to arrive answered 408. */
  sweep(now: number) {
    if (this.#busy) return;
    if (this.#buffered === null && this.#answered) {
      if (now - this.#since > this.#server.keepAliveTimeout) this.destroy();
    } else if (this.#server.headersTimeout > 0 && now - this.#since > this.#server.headersTimeout) {
      this.#socket.removeListener("data", this.#onData);
      this.#buffered = null;
      this.#busy = true; // nothing more is read or answered
      this.#socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    }
  }

  closeIfIdle() {
    this.#closing = true;
    if (!this.#busy && this.#buffered === null) this.destroy();
  }

  destroy() {
    this.#socket.destroy();
  }

  #detach() {
    this.#socket.removeListener("data", this.#onData);
    this.#socket.removeListener("end", this.#onEnd);
    this.#socket.removeListener("close", this.#onClose);
    this.#socket.removeListener("error", this.#onError);
  }

  #handOver() {
    this.#detach();
    const buffered = this.#buffered;
    this.#buffered = null;
    this.#events.handOver(buffered);
    if (this.#ended) this.#socket.emit("end");
  }

  /** Answers what is buffered, request by request, until a request is incomplete or not ours. */
  #next() {
    while (this.#buffered !== null && !this.#busy) {
      const buffered = this.#buffered;
      if (this.#head === undefined) {
        const prefix = Math.min(buffered.length, POST.length);
        if (buffered.compare(POST, 0, prefix, 0, prefix) !== 0) return this.#handOver();
        const headEnd = buffered.indexOf(HEAD_END);
        if (headEnd < 0) {
          if (buffered.length > MAX_HEAD_BYTES) return this.#handOver();
          return;
        }
        if (headEnd > MAX_HEAD_BYTES) return this.#handOver();
        const head = this.#readHead(buffered.toString("latin1", 0, headEnd), headEnd + 4);
        if (head === undefined) return this.#handOver();
        this.#head = head;
      }
      const head = this.#head;
      const end = head.bodyAt + head.length;
      if (buffered.length < end) return;
      this.#head = undefined;
      this.#buffered = buffered.length > end ? buffered.subarray(end) : null;
      this.#answer(head, buffered.subarray(head.bodyAt, end));
    }
  }

  /** The head if the request is plainly an inbox POST, else undefined (Node's to read). */
  #readHead(text: string, bodyAt: number): Head | undefined {
    if (UNUSUAL.test(text)) return undefined;
    let lineEnd = text.indexOf("\r\n");
    const requestLine = REQUEST_LINE.exec(lineEnd < 0 ? text : text.slice(0, lineEnd));
    if (!requestLine) return undefined;
    const headers = new Map<string, string>();
    while (lineEnd >= 0) {
      const start = lineEnd + 2;
      lineEnd = text.indexOf("\r\n", start);
      const end = lineEnd < 0 ? text.length : lineEnd;
      const colon = text.indexOf(":", start);
      // No name, or no colon: (a line folded onto the one before starts with a space, no tchar)
      if (colon <= start || colon >= end) return undefined;
      for (let i = start; i < colon; i++) if (!TOKEN[text.charCodeAt(i)]) return undefined;
      let from = colon + 1;
      let to = end;
      while (from < to && isBlank(text.charCodeAt(from))) from++;
      while (to > from && isBlank(text.charCodeAt(to - 1))) to--;
      const name = text.slice(start, colon).toLowerCase();
      if (headers.has(name)) return undefined;
      headers.set(name, text.slice(from, to));
    }
    const length = headers.get("content-length");
    if (length === undefined || !/^\d{1,7}$/.test(length)) return undefined;
    if (Number(length) > MAX_INBOX_BODY_BYTES) return undefined;
    if (headers.has("transfer-encoding") || headers.has("expect") || headers.has("upgrade"))
      return undefined;
    const connection = headers.get("connection");
    if (connection !== undefined && connection.toLowerCase() !== "keep-alive") return undefined;
    const target = this.#options.inbox.target(requestLine[1]!, headers.get("host"));
    if (target === undefined) return undefined;
    return { target, headers, bodyAt, length: Number(length) };
  }

  #answer(head: Head, body: Buffer) {
    this.#busy = true;
    const { headers } = head;
    const forwardedFor = headers.get("x-forwarded-for");
    if (forwardedFor !== undefined) this.#options.forwardedFor?.(forwardedFor);
    const { target } = head;
    const value = (name: string) => headers.get(name.toLowerCase()) ?? null;
    const request: InboxRequest = {
      method: "POST",
      url: target.url,
      headers: {
        get: value,
        has: (name) => headers.has(name.toLowerCase()),
        forEach(each) {
          for (const [name, value] of headers) each(value, name);
        },
      },
      body: () => Promise.resolve(body),
    };
    const socket = this.#socket;
    void this.#options.inbox
      .answer(request, target, socket.remoteAddress, (answer) => {
        if (!socket.destroyed) socket.write(responseText(answer, this.#server.keepAliveTimeout));
      })
      .finally(() => {
        this.#busy = false;
        this.#answered = true;
        this.#since = performance.now();
        if (socket.destroyed) return;
        if (socket.isPaused()) socket.resume();
        if (this.#closing && this.#buffered === null) return this.destroy();
        if (this.#buffered !== null) this.#next();
        else if (this.#ended) socket.end();
      });
  }
}

const securityLines = Object.entries(securityHeaderValues)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join("");

/** Date as Node writes it, made once a second. */
let dateSecond = -1;
let dateLine = "";
function currentDateLine(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateLine = `Date: ${new Date(now).toUTCString()}\r\n`;
  }
  return dateLine;
}

function responseText(answer: InboxAnswer, keepAliveMs: number): string {
  const status = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}\r\n`;
  const seconds = Math.floor(keepAliveMs / 1000);
  const keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${seconds}\r\n`;
  if (answer.detail === undefined)
    return `${status}${securityLines}Content-Length: 0\r\n${currentDateLine()}${keepAlive}\r\n`;
  const body = JSON.stringify({ detail: answer.detail });
  return (
    `${status}${securityLines}Content-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${currentDateLine()}${keepAlive}\r\n${body}`
  );
}
