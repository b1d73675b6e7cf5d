// A real server-sent-events endpoint on 127.0.0.1 for stream tests: each connection is handed to
// the test's script, and every request's headers are recorded.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type SseConnection = {
  /** 0 for the first request, 1 for the first reconnect, … */
  index: number;
  headers: IncomingHttpHeaders;
  path: string;
  response: ServerResponse;
  /** Answers 200 text/event-stream and keeps the connection open. */
  open: () => void;
  send: (frame: string) => void;
};

export type SseServer = {
  url: string;
  connections: SseConnection[];
  /** Resolves once `count` requests have arrived. */
  waitForConnections: (count: number) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * `answers`: JSON bodies (200) for other `/fe` paths, by how the path ends (say
 * `{"/account/info": {backend: {name: "cattle_grid"}}}`); info is a 404 otherwise.
 */
export async function startSseServer(
  script: (connection: SseConnection) => void,
  answers: Record<string, unknown> = {},
): Promise<SseServer> {
  const connections: SseConnection[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((request, response) => {
    const answer = Object.entries(answers).find(([path]) => request.url?.endsWith(path));
    if (answer) {
      return void response
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify(answer[1]));
    }
    // The console asks once what the server is; this one serves streams only.
    if (request.url?.endsWith("/account/info")) {
      return void response.writeHead(404, { "Content-Type": "application/json" }).end("{}");
    }
    const connection: SseConnection = {
      index: connections.length,
      headers: request.headers,
      path: request.url ?? "/",
      response,
      open: () => {
        response.writeHead(200, {
          "Content-Type": "text/event-stream",
          "Cache-Control": "no-store",
        });
        response.flushHeaders();
      },
      send: (frame) => void response.write(frame),
    };
    connections.push(connection);
    for (const waiter of waiters.filter((w) => connections.length >= w.count)) waiter.resolve();
    script(connection);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/fe/account/stream/incoming`,
    connections,
    waitForConnections: (count) =>
      new Promise((resolve) => {
        if (connections.length >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
