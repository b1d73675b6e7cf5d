// The bench's HTTP server: the built console from dist, and a stand-in /fe/account/stream/* that
// sends N messages at a steady rate with ids 1…N (resuming after Last-Event-ID).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

export type BenchServer = {
  origin: string;
  allSent: Promise<void>;
  /** How many messages the incoming stream has sent so far. */
  sentCount: () => number;
  /** Ends the feed early (it counts as all sent). */
  stopFeed: () => void;
  server: Server;
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".map": "application/json",
  ".svg": "image/svg+xml",
};

function sampleMessage(n: number) {
  const type = ["Create", "Like", "Announce", "Follow", "Undo"][n % 5];
  const actor = `https://remote.example/users/user${n % 97}`;
  return {
    event_type: "incoming",
    actor: "https://corral.example/actors/bench",
    data: {
      raw: {
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${actor}/activities/${n}`,
        type,
        actor,
      },
      parsed: {
        activity: {
          "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
          id: `${actor}/activities/${n}`,
          type,
          actor,
          to: ["https://www.w3.org/ns/activitystreams#Public"],
          object: {
            id: `${actor}/notes/${n}`,
            type: "Note",
            content: `<p>Message number ${n}</p>`,
            attributedTo: actor,
          },
          published: new Date(1_700_000_000_000 + n * 1000).toISOString(),
        },
        signature: {
          type: "RsaSignature2017",
          creator: `${actor}#main-key`,
          signatureValue: "x".repeat(344),
        },
      },
    },
  };
}

/** `ratePerSecond` on /fe/account/stream/incoming (ids 1…N); the other streams stay open and quiet. */
function serveStream(
  request: IncomingMessage,
  response: ServerResponse,
  feed: { messageCount: number; ratePerSecond: number; stopped?: boolean },
  done: () => void,
  progress: (sent: number) => void,
) {
  const { messageCount, ratePerSecond } = feed;
  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
  response.flushHeaders();
  if (!request.url?.endsWith("/incoming")) return;
  const started = Date.now();
  let sent = Number(request.headers["last-event-id"] ?? 0);
  const timer = setInterval(() => {
    const limit = feed.stopped ? sent : messageCount;
    const due = Math.min(limit, Math.floor(((Date.now() - started) / 1000) * ratePerSecond));
    let chunk = "";
    for (; sent < due; sent++)
      chunk += `id: ${sent + 1}\ndata: ${JSON.stringify(sampleMessage(sent + 1))}\n\n`;
    if (chunk) response.write(chunk);
    progress(sent);
    if (sent >= limit) {
      clearInterval(timer);
      done();
    }
  }, 5);
  request.on("close", () => clearInterval(timer));
}

async function serveFile(dist: string, path: string, response: ServerResponse) {
  const file = normalize(join(dist, path === "/" ? "index.html" : path));
  if (!file.startsWith(dist) || !(await stat(file).catch(() => null))?.isFile()) {
    response.writeHead(404).end("not found");
    return;
  }
  response.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
  response.end(await readFile(file));
}

export async function startBenchServer(
  dist: string,
  feed: { messageCount: number; ratePerSecond: number },
): Promise<BenchServer> {
  let streamDone!: () => void;
  const allSent = new Promise<void>((resolve) => (streamDone = resolve));
  let sent = 0;
  const feedState: { messageCount: number; ratePerSecond: number; stopped?: boolean } = { ...feed };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (path.startsWith("/fe/account/stream/"))
      return serveStream(request, response, feedState, streamDone, (n) => (sent = n));
    void serveFile(dist, path, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stopFeed = () => void (feedState.stopped = true);
  return { origin, allSent, sentCount: () => sent, stopFeed, server };
}
