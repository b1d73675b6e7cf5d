// Several `corral serve` processes on one PostgreSQL, as an operator runs them: real processes
// (test-kit/corral-process.ts's startCorral with port 0, so kill -9 is real), a small round-robin HTTP proxy in front, signed inbox traffic. Used by
// test/cluster/*.test.ts and bench/scale.bench.ts.

import { Agent, createServer, request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** Where requests go, in turn; set before the first request. */
  backends: string[];
  close(): Promise<void>;
}

/**
 * Forwards each request, Host and all, to the next backend in turn, streaming both ways (event
 * streams included). A backend that refuses the connection is skipped (nothing was sent); one
 * that fails mid-request answers 502, as a load balancer does.
 */
export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const proxy: RoundRobinProxy = { url: "", backends: [], close: async () => {} };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const forward = (tries: number) => {
      const backend = new URL(proxy.backends[next++ % proxy.backends.length]!);
      const upstream = request(
        { host: backend.hostname, port: backend.port, path: req.url, method: req.method, agent },
        (answer: IncomingMessage) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) upstream.setHeader(name, value);
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "ECONNREFUSED" && tries < proxy.backends.length)
          return forward(tries + 1);
        if (!res.headersSent) res.writeHead(502).end(`backend failed: ${error.code}`);
        else res.destroy();
      });
      upstream.end(body);
    };
    forward(1);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
      agent.destroy();
    });
  return proxy;
}

export interface SignedPost {
  /** The activity's id. */
  id: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface LoadResult {
  /** Ids answered 2xx. */
  accepted: string[];
  /** Answers that were not 2xx (or no answer), by status (0: connection failed). */
  failures: Record<number, number>;
  seconds: number;
}

/**
 * POSTs every request, `concurrency` at a time, each to the next of `targets`. With `retry`,
 * a request that failed is sent again until answered 2xx (a sender retrying), up to 20 times.
 */
export async function postAll(
  posts: SignedPost[],
  targets: string[],
  options: { concurrency: number; retry?: boolean; onAccepted?: (count: number) => void },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const accepted: string[] = [];
  const failures: Record<number, number> = {};
  let next = 0;
  let turn = 0;
  const send = (post: SignedPost) =>
    new Promise<number>((resolve) => {
      const target = new URL(targets[turn++ % targets.length]!);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: post.path,
          method: "POST",
          agent,
          headers: { ...post.headers, "Content-Length": String(post.body.length) },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", () => resolve(0));
        },
      );
      req.on("error", () => resolve(0));
      req.end(post.body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < posts.length) {
        const post = posts[next++]!;
        for (let attempt = 1; ; attempt++) {
          const status = await send(post);
          if (status >= 200 && status < 300) {
            accepted.push(post.id);
            options.onAccepted?.(accepted.length);
            break;
          }
          failures[status] = (failures[status] ?? 0) + 1;
          if (!options.retry || attempt >= 20) break;
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        }
      }
    }),
  );
  agent.destroy();
  return { accepted, failures, seconds: (performance.now() - started) / 1000 };
}
