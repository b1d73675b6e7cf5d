// A stand-in for a real cattle_grid behind Corral's proxy mode: it signs anyone in and sends its
// event streams without event ids (so nothing can be replayed), ending each error stream after
// one message with `retry: 1000` so the console reconnects soon.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Upstream = { url: string; errorStreams: number; close: () => Promise<void> };

function json(response: ServerResponse, body: unknown) {
  response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

export async function startUpstreamWithoutIds(accountName: string): Promise<Upstream> {
  const state = { errorStreams: 0 };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (path === "/fe/signin") return json(response, { token: "upstream-token" });
    if (path === "/fe/account/info") {
      return json(response, { name: accountName, actors: [], baseUrls: [], methodInformation: [] });
    }
    if (!path.startsWith("/fe/account/stream/")) return response.writeHead(404).end();
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
    response.flushHeaders();
    if (!path.endsWith("/error")) return;
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
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
