// A small real reverse proxy in the test process, in front of a server the test can kill: it
// forwards every request to the upstream and streams answers back unbuffered (event streams too),
// and answers 502 with an HTML page, as nginx does, when the upstream cannot be reached. While
// `hold` is set it answers 502 without trying, as nginx does for an upstream its fail_timeout
// still counts as down. Every request is recorded with its time and the status it got.
import {
  createServer,
  request as forward,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type ProxiedRequest = { at: number; method: string; path: string; status: number };

export type GatewayProxy = {
  url: string;
  requests: ProxiedRequest[];
  /** Answer 502 to everything without trying the upstream (true), or forward again (false). */
  hold: (held: boolean) => void;
  close: () => Promise<void>;
};

const BAD_GATEWAY =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

export async function startGatewayProxy(upstream: string): Promise<GatewayProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  let held = false;

  const badGateway = (entry: ProxiedRequest, response: ServerResponse) => {
    entry.status = 502;
    if (response.headersSent) return void response.destroy();
    response.writeHead(502, { "Content-Type": "text/html" }).end(BAD_GATEWAY);
  };

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const entry: ProxiedRequest = {
      at: Date.now(),
      method: incoming.method ?? "GET",
      path: new URL(incoming.url ?? "/", "http://x").pathname,
      status: 0,
    };
    requests.push(entry);
    if (held) return badGateway(entry, response);
    const outgoing = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        response.flushHeaders();
        answer.pipe(response);
        // The upstream dying mid-answer (kill -9) cuts the browser's connection too, as nginx
        // does with an unbuffered stream: the browser sees a failed stream, not a clean end.
        answer.once("aborted", () => response.destroy());
        answer.once("error", () => response.destroy());
      },
    );
    outgoing.once("error", () => badGateway(entry, response));
    response.once("close", () => outgoing.destroy());
    incoming.pipe(outgoing);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    hold: (value) => void (held = value),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
