import { createHash, createSign, generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A whole remote ActivityPub server on 127.0.0.1 (plain HTTP; the harness runs Corral with
// --allow-private-addresses): NodeInfo, WebFinger, one actor with its RSA key at /actor, and an
// inbox at /inbox that accepts POSTs and answers GETs with the status the test sets (403 with an
// HTML page, as a blocking host does), or holds them until the test lets them go. It signs what it sends as Mastodon does (draft-cavage,
// rsa-sha256 over (request-target) host date digest), and can send with a Digest that lies.

export type RemotePeer = {
  origin: string;
  /** host:port, as Corral's pages name the host. */
  host: string;
  actor: string;
  inbox: string;
  /** What GET /inbox answers from now on (its body an HTML page). */
  inboxGetStatus(status: number): void;
  /** Holds every GET /inbox unanswered until the returned function is called. */
  holdInboxGets(): () => void;
  /** How many TCP connections reached it (a check that "connects nowhere" leaves this at 0). */
  connections(): number;
  /**
   * POSTs an activity to `inbox`, signed; `wrongDigest` sends a Digest of another body,
   * `dateOffsetMs` a Date that far off (signed as sent), `badSignature` a signature of other text.
   */
  post(
    inbox: string,
    activity: Record<string, unknown>,
    options?: { wrongDigest?: boolean; dateOffsetMs?: number; badSignature?: boolean },
  ): Promise<number>;
  close(): Promise<void>;
};

export async function startRemotePeer(name: string): Promise<RemotePeer> {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  let origin = "";
  let getStatus = 200;
  let inboxGetsHeld: Promise<void> | null = null;
  let connections = 0;
  const json = (body: unknown, type = "application/activity+json") => ({ body, type });
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const url = new URL(request.url ?? "/", origin);
      const send = (status: number, body: string, type: string) =>
        response.writeHead(status, { "Content-Type": type }).end(body);
      const reply = ({ body, type }: { body: unknown; type: string }) =>
        send(200, JSON.stringify(body), type);
      if (request.method === "POST" && url.pathname === "/inbox")
        return send(202, "", "text/plain");
      switch (url.pathname) {
        case "/.well-known/nodeinfo":
          return reply(
            json(
              {
                links: [
                  {
                    rel: "http://nodeinfo.diaspora.software/ns/schema/2.0",
                    href: `${origin}/nodeinfo/2.0`,
                  },
                ],
              },
              "application/json",
            ),
          );
        case "/nodeinfo/2.0":
          return reply(
            json(
              {
                version: "2.0",
                software: { name: "testpeer", version: "1.0.0" },
                protocols: ["activitypub"],
                services: { inbound: [], outbound: [] },
                openRegistrations: false,
                usage: { users: {} },
                metadata: {},
              },
              "application/json",
            ),
          );
        case "/.well-known/webfinger":
          return reply(
            json(
              {
                subject: `acct:${name}@${url.host}`,
                links: [
                  { rel: "self", type: "application/activity+json", href: `${origin}/actor` },
                ],
              },
              "application/jrd+json",
            ),
          );
        case "/actor":
          return reply(
            json({
              "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
              id: `${origin}/actor`,
              type: "Person",
              preferredUsername: name,
              inbox: `${origin}/inbox`,
              publicKey: { id: `${origin}/actor#main-key`, owner: `${origin}/actor`, publicKeyPem },
            }),
          );
        case "/inbox":
          if (inboxGetsHeld) {
            const status = getStatus;
            void inboxGetsHeld.then(() =>
              send(
                status,
                `<!DOCTYPE html><html><body><h1>${status}</h1></body></html>`,
                "text/html",
              ),
            );
            return;
          }
          return send(
            getStatus,
            `<!DOCTYPE html><html><body><h1>${getStatus}</h1></body></html>`,
            "text/html",
          );
        default:
          return send(404, "", "text/plain");
      }
    });
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  const post: RemotePeer["post"] = async (inbox, activity, options = {}) => {
    const body = JSON.stringify(activity);
    const digested = options.wrongDigest ? `${body} ` : body;
    const digest = `SHA-256=${createHash("sha256").update(digested).digest("base64")}`;
    const target = new URL(inbox);
    const date = new Date(Date.now() + (options.dateOffsetMs ?? 0)).toUTCString();
    const signed = [
      `(request-target): post ${target.pathname}`,
      `host: ${target.host}`,
      `date: ${date}`,
      `digest: ${digest}`,
    ].join("\n");
    const signature = createSign("sha256")
      .update(options.badSignature ? `${signed}\nx` : signed)
      .sign(privateKey, "base64");
    const response = await fetch(inbox, {
      method: "POST",
      headers: {
        "Content-Type": "application/activity+json",
        Date: date,
        Digest: digest,
        Signature: `keyId="${origin}/actor#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`,
      },
      body,
    });
    await response.arrayBuffer();
    return response.status;
  };

  return {
    origin,
    host: `127.0.0.1:${port}`,
    actor: `${origin}/actor`,
    inbox: `${origin}/inbox`,
    inboxGetStatus: (status) => void (getStatus = status),
    holdInboxGets: () => {
      let release = () => {};
      inboxGetsHeld = new Promise<void>((done) => (release = done));
      return () => {
        inboxGetsHeld = null;
        release();
      };
    },
    connections: () => connections,
    post,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
