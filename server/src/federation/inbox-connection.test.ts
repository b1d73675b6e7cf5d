import { connect, type AddressInfo, type Socket } from "node:net";
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { InboxHttpServer } from "./inbox-connection.ts";
import type { InboxRequest } from "./inbox.ts";
import type { InboxTarget } from "./inbox-listener.ts";

// inbox-connection.ts: inbox POSTs answered on the connection, everything else Node's, with its
// bytes and in order.

interface Seen {
  inbox: { url: string; body: string; headers: Record<string, string>; peer?: string }[];
  node: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
}

let server: InboxHttpServer | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => {
    if (!server?.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = undefined;
});

async function start(
  status = 202,
  delayMs = 5,
): Promise<{ port: number; seen: Seen; server: InboxHttpServer; pauses: () => number }> {
  const seen: Seen = { inbox: [], node: [] };
  const s = new InboxHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      seen.node.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(200, { "Content-Length": "4" }).end("node");
    });
  });
  s.inbox({
    inbox: {
      target: (target: string, host: string | undefined): InboxTarget | undefined =>
        /^\/inbox(\?|$)/.test(target) && host === "example.test"
          ? { path: "/inbox", url: `https://example.test${target}`, actorId: null }
          : undefined,
      async answer(request: InboxRequest, _target, peer, write) {
        const headers: Record<string, string> = {};
        request.headers.forEach((value, name) => (headers[name] = value));
        const body = Buffer.from((await request.body())!).toString();
        seen.inbox.push({ url: request.url, body, headers, peer });
        await new Promise((resolve) => setTimeout(resolve, delayMs)); // answers come later
        write(status === 202 ? { status } : { status, detail: "no ünïcode trouble" });
      },
    },
  });
  let pauses = 0;
  s.on("connection", (socket: Socket) => {
    const pause = socket.pause.bind(socket);
    socket.pause = () => {
      pauses++;
      return pause();
    };
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  server = s;
  return { port: (s.address() as AddressInfo).port, seen, server: s, pauses: () => pauses };
}

/** A raw connection: what it has read so far, as text. */
function open(port: number) {
  const socket = connect({ port, host: "127.0.0.1" });
  sockets.push(socket);
  let text = "";
  let closed = false;
  socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
  socket.on("close", () => (closed = true));
  socket.on("error", () => {});
  return {
    socket,
    write: (data: string) => socket.write(data),
    text: () => text,
    closed: () => closed,
    /** Waits until `count` answers have been read. */
    answers: async (count: number, ms = 5000) => {
      await until(() => answersIn(text).length >= count, ms);
      return answersIn(text);
    },
  };
}

async function until(done: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Each answer's head and body, by its Content-Length. */
function answersIn(text: string): { head: string; body: string }[] {
  const out: { head: string; body: string }[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf("\r\n\r\n", at);
    if (end < 0) return out;
    const head = text.slice(at, end);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
    const bodyEnd =
      end +
      4 +
      Buffer.from(text.slice(end + 4))
        .subarray(0, length)
        .toString().length;
    if (Buffer.byteLength(text.slice(end + 4)) < length) return out;
    out.push({ head, body: text.slice(end + 4, bodyEnd) });
    at = bodyEnd;
  }
}

const post = (body: string, extra = "", target = "/inbox") =>
  `POST ${target} HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/activity+json\r\n` +
  `${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe("inbox POSTs on the connection", () => {
  it("answers a plain inbox POST itself, with the headers Node's answers carry", async () => {
    const { port, seen } = await start();
    const client = open(port);
    client.write(post('{"a":1}', 'Signature: keyId="k"\r\nX-Forwarded-For: 10.0.0.1\r\n'));
    const [answer] = await client.answers(1);
    expect(answer!.head).toMatch(/^HTTP\/1\.1 202 Accepted\r\n/);
    expect(answer!.head).toMatch(/\r\nContent-Length: 0\r\n/);
    expect(answer!.head).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
    expect(answer!.head).toMatch(/\r\nContent-Security-Policy: /);
    expect(answer!.head).toMatch(/\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/);
    expect(answer!.head).toMatch(/\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5$/);
    expect(seen.node).toEqual([]);
    expect(seen.inbox).toEqual([
      {
        url: "https://example.test/inbox",
        body: '{"a":1}',
        peer: "127.0.0.1",
        headers: {
          host: "example.test",
          "content-type": "application/activity+json",
          signature: 'keyId="k"',
          "x-forwarded-for": "10.0.0.1",
          "content-length": "7",
        },
      },
    ]);
  });

  it("writes a refusal's detail as JSON, its length in bytes", async () => {
    const { port } = await start(401);
    const client = open(port);
    client.write(post("{}"));
    const [answer] = await client.answers(1);
    expect(answer!.head).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(answer!.head).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(JSON.parse(answer!.body)).toEqual({ detail: "no ünïcode trouble" });
  });

  it("answers pipelined POSTs in order, then hands the connection to Node for a GET", async () => {
    const { port, seen } = await start();
    const client = open(port);
    client.write(
      post('{"n":1}') +
        post('{"n":2}') +
        "GET /fe/x HTTP/1.1\r\nHost: example.test\r\n\r\n" +
        post('{"n":3}'),
    );
    const answers = await client.answers(4);
    expect(answers.map((a) => a.head.slice(0, 12))).toEqual([
      "HTTP/1.1 202",
      "HTTP/1.1 202",
      "HTTP/1.1 200",
      "HTTP/1.1 200",
    ]);
    expect(seen.inbox.map((s) => s.body)).toEqual(['{"n":1}', '{"n":2}']);
    // From the GET on the connection is Node's, the inbox POST after it too.
    expect(seen.node.map((s) => [s.method, s.url, s.body])).toEqual([
      ["GET", "/fe/x", ""],
      ["POST", "/inbox", '{"n":3}'],
    ]);
  });

  it("stops reading while an answer is awaited and 1 MiB more waits, then goes on", async () => {
    const { port, seen, pauses } = await start(202, 300);
    const client = open(port);
    const next = post('{"n":2}');
    client.write(post('{"n":1}') + "x".repeat(3 * 1024 * 1024) + "\r\n\r\n");
    const [first, refused] = await client.answers(2);
    expect(first!.head).toMatch(/^HTTP\/1\.1 202/);
    expect(pauses()).toBeGreaterThan(0);
    // The rest is no request: Node's to refuse, as it would have refused it from the start.
    expect(refused!.head).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(seen.inbox.map((s) => s.body)).toEqual(['{"n":1}']);
    const again = open(port);
    again.write(next);
    await again.answers(1);
    expect(seen.inbox.map((s) => s.body)).toEqual(['{"n":1}', '{"n":2}']);
  });

  it("reads a POST that arrives in pieces", async () => {
    const { port, seen } = await start();
    const client = open(port);
    const bytes = post(JSON.stringify({ text: "x".repeat(3000) }));
    for (let at = 0; at < bytes.length; at += 700) {
      client.write(bytes.slice(at, at + 700));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await client.answers(1);
    expect(seen.inbox).toHaveLength(1);
    expect(JSON.parse(seen.inbox[0]!.body).text).toHaveLength(3000);
    expect(seen.node).toEqual([]);
  });

  it.each([
    [
      "chunked",
      "POST /inbox HTTP/1.1\r\nHost: example.test\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    ],
    ["a header twice", post("{}", "Signature: a\r\nsignature: b\r\n")],
    ["Expect", post("{}", "Expect: 100-continue\r\n")],
    ["HTTP/1.0", post("{}").replace("HTTP/1.1", "HTTP/1.0")],
    ["Connection: close", post("{}", "Connection: close\r\n")],
    ["another path", post("{}", "", "/inbox/../fe")],
    ["another host", post("{}").replace("example.test", "Example.test")],
    ["a space before the colon", post("{}", "Digest : x\r\n")],
    ["a folded line", post("{}", "Digest: a\r\n b\r\n")],
    ["no colon", post("{}", "Digest\r\n")],
  ])("hands %s to Node with every byte", async (_name, request) => {
    const { port, seen } = await start();
    const client = open(port);
    client.write(request);
    // Node answers Expect: 100-continue with a 100 first.
    const answer = (await client.answers(request.includes("Expect") ? 2 : 1)).at(-1);
    expect(seen.inbox).toEqual([]);
    // Node answers it (or refuses it as Node would have from the start).
    if (answer!.head.startsWith("HTTP/1.1 200")) {
      expect(seen.node).toHaveLength(1);
      expect(seen.node[0]!.body).toBe("{}");
    } else expect(answer!.head).toMatch(/^HTTP\/1\.1 400 Bad Request/);
  });

  it("leaves a head with a bare LF or a control character to Node, which refuses it", async () => {
    const { port, seen } = await start();
    for (const request of [post("{}", "X-A: 1\nX-B: 2\r\n"), post("{}", "X-A: a\u0001b\r\n")]) {
      const client = open(port);
      client.write(request);
      const [answer] = await client.answers(1);
      expect(answer!.head).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    }
    expect(seen.inbox).toEqual([]);
  });

  it("leaves a body over 1 MiB to Node", async () => {
    const { port, seen } = await start();
    const client = open(port);
    client.write(post("x".repeat(1024 * 1024 + 1)));
    await client.answers(1);
    expect(seen.inbox).toEqual([]);
    expect(seen.node).toHaveLength(1);
  });

  it("closes a connection idle for keepAliveTimeout after an answer, and answers 408 to a head that never ends", async () => {
    const { port, server: s } = await start();
    s.keepAliveTimeout = 300;
    s.headersTimeout = 300;
    const idle = open(port);
    idle.write(post("{}"));
    await idle.answers(1);
    const slow = open(port);
    slow.write("POST /inbox HTTP/1.1\r\nHost: example.test\r\n");
    await until(() => idle.closed() && slow.closed(), 4000);
    expect(slow.text()).toBe("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
  });

  it("lets close() end idle connections at once", async () => {
    const { port, server: s } = await start();
    const client = open(port);
    client.write(post("{}"));
    await client.answers(1);
    const started = Date.now();
    await new Promise<void>((resolve) => s.close(() => resolve()));
    expect(Date.now() - started).toBeLessThan(1000);
    await until(() => client.closed());
  });

  it("ends the connection after the answer when the client ends its side", async () => {
    const { port } = await start();
    const client = open(port);
    client.socket.end(post("{}"));
    await client.answers(1);
    await until(() => client.closed());
  });
});
