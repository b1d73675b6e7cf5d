import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A remote ActivityPub server as the real Corral server delivers to it: plain HTTP on 127.0.0.1
// (the harness runs Corral with --allow-private-addresses) serving one actor document at /actor
// and answering POSTs to its /inbox with the status the test sets. It counts what it accepted.

export type RemoteInbox = {
  /** The actor's id, to put in an activity's `to`. */
  actor: string;
  /** The actor's inbox, as the trigger record lists it. */
  inbox: string;
  /** host:port, as the Deliveries page lists it. */
  host: string;
  /** The status the inbox answers from now on, and the body (HTML) it sends with it. */
  answer(status: number, body?: string): void;
  /** The bodies of the POSTs it answered with a 2xx, in arrival order. */
  accepted: unknown[];
  /** How many POSTs reached the inbox, whatever it answered. */
  attempts(): number;
  close(): Promise<void>;
};

export async function startRemoteInbox(name: string, status: number): Promise<RemoteInbox> {
  let current = status;
  let currentBody = "";
  let attempts = 0;
  const accepted: unknown[] = [];
  let origin = "";
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "GET") {
        response.writeHead(200, { "Content-Type": "application/activity+json" }).end(
          JSON.stringify({
            "@context": ["https://www.w3.org/ns/activitystreams"],
            id: `${origin}/actor`,
            type: "Person",
            preferredUsername: name,
            inbox: `${origin}/inbox`,
          }),
        );
        return;
      }
      attempts += 1;
      if (current >= 200 && current < 300) {
        accepted.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown);
      }
      response
        .writeHead(current, currentBody ? { "Content-Type": "text/html" } : {})
        .end(currentBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    actor: `${origin}/actor`,
    inbox: `${origin}/inbox`,
    host: `127.0.0.1:${port}`,
    answer: (next, body = "") => {
      current = next;
      currentBody = body;
    },
    accepted,
    attempts: () => attempts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
