import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A remote ActivityPub server as the real Corral server meets it on a lookup: plain HTTP on
// 127.0.0.1 (the harness runs Corral with --allow-private-addresses), answering each path with
// the document registered for it, after a delay the test releases when it chooses.

export type DocumentServer = {
  url: string;
  /** Answers `path` with `document` (JSON, or a string sent as it is). */
  serve(path: string, document: unknown): void;
  /** Answers GETs of `path` with 302 to `location` from now on. */
  redirect(path: string, location: string): void;
  /** The next request for `path` waits until the returned function is called. */
  hold(path: string): () => void;
  close(): Promise<void>;
};

export async function startDocumentServer(): Promise<DocumentServer> {
  const documents = new Map<string, unknown>();
  const holds = new Map<string, Promise<void>>();
  const redirects = new Map<string, string>();
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const held = holds.get(path);
    if (held) {
      holds.delete(path);
      await held;
    }
    const location = redirects.get(path);
    if (location !== undefined) {
      response.writeHead(302, { Location: location }).end();
      return;
    }
    if (!documents.has(path)) {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("no such document");
      return;
    }
    const document = documents.get(path);
    response
      .writeHead(200, { "Content-Type": "application/activity+json" })
      .end(typeof document === "string" ? document : JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (path, document) => void documents.set(path, document),
    redirect: (path, location) => void redirects.set(path, location),
    hold(path) {
      let release!: () => void;
      holds.set(path, new Promise<void>((resolve) => (release = resolve)));
      return () => release();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `{"level": {"level": … "bottom" …}}` nested `levels` deep, built as text (no recursion). */
export function nestedDocumentText(levels: number): string {
  return `${'{"level":'.repeat(levels)}"bottom"${"}".repeat(levels)}`;
}
