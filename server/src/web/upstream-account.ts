// Proxy mode with recording: whose recorded events a request may read. The bearer token is
// asked of the upstream (`GET /fe/account/info`, its accountName), never read from the request;
// an answer is kept for a short while so that a page of history is not two requests upstream.

import { createHash } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { ensureRecordedAccount, type Account, type TokenWatch } from "../accounts/index.ts";
import type { Db } from "../db/db.ts";
import type { FeEnv } from "../fe/auth.ts";

const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;
const REFUSAL_MS = 1_000;

type Answer =
  | { ok: true; name: string }
  | { ok: false; status: number; detail: string; wwwAuthenticate?: string };

export interface UpstreamAccounts {
  /** What the upstream says of a token (cached for a short while). */
  ask(token: string): Promise<Answer>;
  /** Open streams end once the upstream no longer accepts their token (checked as cached). */
  tokenWatch: TokenWatch;
}

export function createUpstreamAccounts(
  upstream: string,
  options: { cacheMs?: number } = {},
): UpstreamAccounts {
  const cacheMs = options.cacheMs ?? CACHE_MS;
  // An entry serves requests until its expiresAt (ms since the epoch), the question still open
  // or answered.
  const cache = new Map<string, { expiresAt: number; answer: Promise<Answer> }>();
  const ask = (token: string): Promise<Answer> => {
    const key = createHash("sha256").update(token).digest("base64url");
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && now < hit.expiresAt) return hit.answer;
    if (cache.size >= CACHE_MAX) {
      for (const [k, v] of cache) if (now >= v.expiresAt) cache.delete(k);
      if (cache.size >= CACHE_MAX) cache.clear();
    }
    const answer = askUpstream(upstream, token);
    const entry = { expiresAt: now + cacheMs, answer };
    cache.set(key, entry);
    // A failure to reach the upstream is not remembered: the next request asks again. A refusal
    // is kept for a second only: cattle_grid can refuse a token it has just issued for a moment
    // (docs/cattle-grid-differences.md#writes-answered-before-they-are-committed).
    void answer.then((a) => {
      if (a.ok || cache.get(key) !== entry) return;
      if (a.status >= 500) cache.delete(key);
      else entry.expiresAt = now + Math.min(cacheMs, REFUSAL_MS);
    });
    return answer;
  };
  const tokenWatch: TokenWatch = {
    watch(token, onEnd) {
      const timer = setInterval(() => {
        void ask(token).then((answer) => {
          if (!answer.ok && answer.status === 401) {
            clearInterval(timer);
            onEnd();
          }
        });
      }, cacheMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return { ask, tokenWatch };
}

async function askUpstream(upstream: string, token: string): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${upstream}/fe/account/info`, {
      headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const reason = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    return { ok: false, status: 502, detail: `Upstream ${upstream} is unreachable: ${reason}` };
  }
  const body = (await response.json().catch(() => null)) as {
    accountName?: unknown;
    detail?: unknown;
  } | null;
  if (response.status === 401 || response.status === 403) {
    const detail = typeof body?.detail === "string" ? body.detail : "Not authenticated";
    return { ok: false, status: 401, detail, wwwAuthenticate: "Bearer" };
  }
  if (!response.ok || typeof body?.accountName !== "string") {
    return {
      ok: false,
      status: 502,
      detail: `Upstream ${upstream} answered /fe/account/info with ${response.status} and no accountName`,
    };
  }
  return { ok: true, name: body.accountName };
}

/** The signed-in account, as the upstream names it, under its local id for recorded events. */
export function requireUpstreamAccount(db: Db, accounts: UpstreamAccounts) {
  return createMiddleware<FeEnv>(async (c, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
    if (!match) {
      return c.json({ detail: "Not authenticated" }, 401, { "WWW-Authenticate": "Bearer" });
    }
    const answer = await accounts.ask(match[1]!);
    if (!answer.ok) {
      const headers: Record<string, string> = answer.wwwAuthenticate
        ? { "WWW-Authenticate": answer.wwwAuthenticate }
        : {};
      return c.json({ detail: answer.detail }, answer.status as 401 | 502, headers);
    }
    const id = await ensureRecordedAccount(db, answer.name);
    const account: Account = {
      id,
      name: answer.name,
      admin: false,
      permissions: [],
      createdAt: 0,
      recorded: true,
    };
    c.set("account", account);
    c.set("token", match[1]!);
    await next();
  });
}
