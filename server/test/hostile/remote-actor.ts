// A remote ActivityPub actor played by the test: a bare HTTP server on loopback with a real RSA
// key, serving its actor document (and any extra documents), recording every request, and
// signing requests as itself. Corral fetches its key over HTTP, as it would from any server.
// With `authorizedFetch` it behaves like cattle_grid, GoToSocial or Mastodon in secure mode: a GET
// is answered only when signed by a key it can fetch and verify (else 401); with
// `refuseSigned` it answers a signed GET 401 and an unsigned one as usual (a peer that cannot
// reach the signer's key).

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportSpki, generateCryptoKeyPair, signRequest, verifyRequest } from "@fedify/fedify";
import { preloadedContexts } from "@fedify/vocab-runtime";

export interface RemoteActor {
  /** http://HOST:PORT, HOST being `name` (default 127.0.0.1). */
  base: string;
  port: number;
  actorId: string;
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  /** The owners of the keys that signed GETs it answered (authorizedFetch only). */
  verifiedGetters: string[];
  /** How POSTs are answered from now on (default 202 and no body). */
  postAnswer: { status: number; body?: string; headers?: Record<string, string> };
  /** Answers GETs of `path` so from now on (any status, body and headers). */
  answerGet(
    path: string,
    answer: { status: number; body?: string; headers?: Record<string, string> },
  ): void;
  /** Serves `body` (JSON text) at `path` from now on. */
  serve(path: string, body: string): void;
  /**
   * A POST of `body` to `url` signed with this actor's key (draft-cavage unless told); `headers`
   * given are signed as they are (a Date or Digest of the test's choosing).
   */
  signedPost(
    url: string,
    body: string,
    spec?: "rfc9421",
    headers?: Record<string, string>,
  ): Promise<Request>;
  close(): Promise<void>;
}

export async function startRemoteActor(
  options: {
    name?: string;
    inboxName?: string;
    authorizedFetch?: boolean;
    refuseSigned?: boolean;
    /** Answers WebFinger as most of the fediverse does: `acct:remote@HOST:PORT` only, else 404. */
    webfinger?: boolean;
  } = {},
): Promise<RemoteActor> {
  const keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const publicKeyPem = await exportSpki(keys.publicKey);
  const documents = new Map<string, string>();
  const requests: RemoteActor["requests"] = [];
  const verifiedGetters: string[] = [];
  const getAnswers = new Map<
    string,
    { status: number; body?: string; headers?: Record<string, string> }
  >();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      requests.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const path = (req.url ?? "/").split("?")[0]!;
      const fixed = req.method === "GET" ? getAnswers.get(path) : undefined;
      if (!fixed && options.webfinger && path === "/.well-known/webfinger") {
        const resource = new URL(req.url!, base).searchParams.get("resource");
        const known = resource === `acct:remote@${new URL(base).host}`;
        res.writeHead(known ? 200 : 404, { "Content-Type": "application/jrd+json" });
        res.end(
          known
            ? JSON.stringify({
                subject: resource,
                links: [{ rel: "self", type: "application/activity+json", href: actorId }],
              })
            : "",
        );
        return;
      }
      if (fixed) {
        res.writeHead(fixed.status, fixed.headers);
        res.end(fixed.body);
        return;
      }
      const document = req.method === "GET" ? documents.get(path) : undefined;
      if (document !== undefined && options.refuseSigned && req.headers.signature) {
        res.writeHead(401);
        res.end("signed requests are not accepted here");
        return;
      }
      if (document !== undefined && options.authorizedFetch) {
        const owner = await verifyGet(req, base);
        if (!owner) {
          res.writeHead(401);
          res.end("a signed request is required");
          return;
        }
        verifiedGetters.push(owner);
      }
      if (document !== undefined) {
        res.writeHead(200, { "Content-Type": "application/activity+json" });
        res.end(document);
      } else if (req.method === "POST") {
        res.writeHead(remote.postAnswer.status, remote.postAnswer.headers);
        res.end(remote.postAnswer.body);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://${options.name ?? "127.0.0.1"}:${port}`;
  const inboxBase = `http://${options.inboxName ?? options.name ?? "127.0.0.1"}:${port}`;
  const actorId = `${base}/actor`;
  documents.set(
    "/actor",
    JSON.stringify({
      "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
      id: actorId,
      type: "Person",
      preferredUsername: "remote",
      inbox: `${inboxBase}/inbox`,
      publicKey: { id: `${actorId}#main-key`, owner: actorId, publicKeyPem },
    }),
  );
  const remote: RemoteActor = {
    postAnswer: { status: 202 },
    base,
    port,
    actorId,
    requests,
    verifiedGetters,
    serve: (path, body) => void documents.set(path, body),
    answerGet: (path, answer) => void getAnswers.set(path, answer),
    signedPost: (url, body, spec, headers) =>
      signRequest(
        new Request(url, {
          method: "POST",
          headers: { "Content-Type": "application/activity+json", ...headers },
          body,
        }),
        keys.privateKey,
        new URL(`${actorId}#main-key`),
        spec ? { spec } : {},
      ),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return remote;
}

/** The owner of the key that signed this GET, fetched from its server unsigned; or null. */
async function verifyGet(req: IncomingMessage, base: string): Promise<string | null> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  const key = await verifyRequest(new Request(`${base}${req.url}`, { headers }), {
    documentLoader: async (url) => {
      if (Object.hasOwn(preloadedContexts, url))
        return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
      const response = await fetch(url, { headers: { Accept: "application/activity+json" } });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return { contextUrl: null, document: await response.json(), documentUrl: url };
    },
  }).catch(() => null);
  return key?.ownerId?.href ?? null;
}

/** JSON text of an object nested `depth` levels deep: {"a":{"a":…1…}}. */
export function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}
