// A stand-in for a real cattle_grid behind Corral's proxy mode: it signs anyone in and sends its
// event streams without event ids (so nothing can be replayed), ending each error stream after
// one message with `retry: 1000` so the console reconnects soon. With `backend` its info names
// the server as cattle_grid's does; with `history` it keeps cattle_grid's history
// (`GET /fe/account/history`: `{events}`, its 10 newest, newest first) and `push` sends an event
// live and keeps it there. Its `combined` stream sends incoming and outgoing events alike, each
// with a history_id of its own (a uuid; the history and the other streams give null, as
// cattle_grid 0.5.22 does). Routes it lacks answer 404, and every request is recorded.
import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Upstream = {
  url: string;
  errorStreams: number;
  /** Paths requested, in order. */
  paths: string[];
  /** Sends an event (with `event_type`) to the open streams of its type and keeps it in history. */
  push: (event: { event_type: string } & Record<string, unknown>) => void;
  /** Ends every open incoming and outgoing stream, as a restart would. */
  dropStreams: () => void;
  close: () => Promise<void>;
};

export type UpstreamOptions = {
  backend?: { name: string; version: string };
  /** Events the history holds at the start, oldest first; no history route without it. */
  history?: Record<string, unknown>[];
};

function json(response: ServerResponse, body: unknown) {
  response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

export async function startUpstreamWithoutIds(
  accountName: string,
  options: UpstreamOptions = {},
): Promise<Upstream> {
  const state = { errorStreams: 0 };
  const paths: string[] = [];
  const history = options.history ? [...options.history] : null;
  const open = new Map<string, Set<ServerResponse>>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    paths.push(path);
    if (path === "/fe/signin") return json(response, { token: "upstream-token" });
    if (path === "/fe/account/info") {
      const info = { name: accountName, actors: [], baseUrls: [], methodInformation: [] };
      return json(response, options.backend ? { ...info, backend: options.backend } : info);
    }
    if (path === "/fe/account/history" && history) {
      return json(response, { events: history.slice(-10).reverse() });
    }
    if (!path.startsWith("/fe/account/stream/")) {
      return response
        .writeHead(404, { "Content-Type": "application/json" })
        .end('{"detail":"Not Found"}');
    }
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
    response.flushHeaders();
    const type = path.split("/").at(-1)!;
    if (type !== "error") {
      const set = open.get(type) ?? new Set();
      open.set(type, set);
      set.add(response);
      response.once("close", () => set.delete(response));
      response.write("retry: 1000\n\n");
      return;
    }
    const n = ++state.errorStreams;
    response.write(`retry: 1000\ndata: {"routing_key": "upstream_error_${n}", "message": []}\n\n`);
    // Ends the stream a moment later, as a restarted cattle_grid would.
    if (n === 1) setTimeout(() => response.end(), 1500);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get errorStreams() {
      return state.errorStreams;
    },
    paths,
    push(event) {
      history?.push(event);
      for (const response of open.get(event.event_type) ?? []) {
        response.write(`data: ${JSON.stringify(event)}\n\n`);
      }
      if (event.event_type !== "incoming" && event.event_type !== "outgoing") return;
      const combined = { ...event, history_id: randomUUID() };
      for (const response of open.get("combined") ?? []) {
        response.write(`data: ${JSON.stringify(combined)}\n\n`);
      }
    },
    dropStreams() {
      for (const set of open.values()) {
        for (const response of set) response.end();
        set.clear();
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
