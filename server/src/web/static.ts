// The built console (console/dist), same origin as /fe. Files are served as they are; any other
// GET that looks like a page (/signin, /stream/incoming, /lookup …) gets index.html, so the
// console's router takes over. Without a build, a page says how to make one.

import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import type { Context } from "hono";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

export function createConsoleHandler(consoleDir: string) {
  const root = resolve(consoleDir);
  return async (c: Context) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return c.text("Method Not Allowed", 405);
    const path = decodeURIComponentSafe(new URL(c.req.url).pathname);
    if (path === null) return c.text("Bad Request", 400);
    const file = resolve(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return c.text("Not Found", 404);
    const found = await readIfFile(file);
    if (found) {
      // Vite puts content-hashed files under assets/: safe to cache for good.
      const cache = path.startsWith("/assets/")
        ? "public, max-age=31536000, immutable"
        : "no-cache";
      return send(c, found, types[extname(file)] ?? "application/octet-stream", cache);
    }
    if (!isPageRequest(c, path)) return c.text("Not Found", 404);
    const index = await readIfFile(join(root, "index.html"));
    if (!index) return c.html(missingConsolePage(root), 503);
    return send(c, index, types[".html"]!, "no-cache");
  };
}

function send(c: Context, body: Buffer, type: string, cache: string) {
  return new Response(c.req.method === "HEAD" ? null : new Uint8Array(body), {
    headers: { "Content-Type": type, "Cache-Control": cache },
  });
}

/**
 * Whether a missing path should get the console's index.html: a browser navigating (it accepts
 * HTML) to something that is not a file and not a federation path. Everything else is a 404, so
 * an unknown actor or WebFinger resource never answers 200 with a web page.
 */
function isPageRequest(c: Context, path: string): boolean {
  // A host's page (/deliveries/mastodon.social, /deliveries/127.0.0.1:8080) is named by its host.
  const hostPage = /^\/deliveries\/[^/]+$/.test(path);
  if (extname(path) !== "" && !path.endsWith(".html") && !hostPage) return false;
  if (/^\/(\.well-known|nodeinfo|actor|objects|inbox|fe)(\/|$)/.test(path)) return false;
  return (c.req.header("accept") ?? "").includes("text/html");
}

async function readIfFile(file: string): Promise<Buffer | null> {
  try {
    if (!(await stat(file)).isFile()) return null;
    return await readFile(file);
  } catch {
    return null;
  }
}

function decodeURIComponentSafe(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

function missingConsolePage(root: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Corral: console not built</title></head>
<body style="font-family: sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The console is not built</h1>
<p>The server is running (the account API answers under <code>/fe</code>), but there is no
console build in <code>${escapeHtml(root)}</code>.</p>
<p>Build it with <code>npm run build</code>, or start with <code>npm start</code>, which builds it when needed.</p>
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
