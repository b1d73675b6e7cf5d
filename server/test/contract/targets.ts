// The two servers the contract suite runs against, behind one shape: Corral in-process on a
// fresh SQLite file, and the real cattle_grid 0.5.22 (test-peers/cattle-grid.ts) behind nginx.
// A test speaks to either only over HTTP, through its public origin.

import { startCattleGrid } from "../../../test-peers/cattle-grid.ts";
import { addAccount, signIn, startTestServer } from "../server.ts";

export type TargetName = "corral" | "cattle_grid";

export interface Target {
  name: TargetName;
  /** The public origin: /fe, actors, WebFinger. */
  origin: string;
  /** A new admin account, signed in: its bearer token. */
  account(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startTarget(name: TargetName): Promise<Target> {
  if (name === "corral") {
    const server = await startTestServer();
    return {
      name,
      origin: server.url,
      async account(account) {
        await addAccount(server, account);
        return signIn(server, account);
      },
      stop: () => server.close(),
    };
  }
  const cattleGrid = await startCattleGrid();
  return {
    name,
    origin: cattleGrid.origin,
    async account(account) {
      await cattleGrid.createAccount(account, `${account}-password`);
      return cattleGrid.signIn(account, `${account}-password`);
    },
    stop: () => cattleGrid.stop(),
  };
}

/** An /fe call with a bearer token and a JSON body; the status and the parsed body (or text). */
export async function call(
  target: Target,
  token: string | null,
  path: string,
  init: { method?: string; body?: unknown; raw?: string } = {},
): Promise<{ status: number; type: string; body: unknown }> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  const hasBody = init.body !== undefined || init.raw !== undefined;
  if (hasBody) headers["Content-Type"] = "application/json";
  const response = await fetch(`${target.origin}/fe${path}`, {
    method: init.method ?? (hasBody ? "POST" : "GET"),
    headers,
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    signal: AbortSignal.timeout(20_000),
  });
  const type = response.headers.get("Content-Type") ?? "";
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text is the body.
  }
  return { status: response.status, type, body };
}
