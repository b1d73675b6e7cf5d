// Shared test helpers: a real server in-process on a fresh SQLite file, accounts, sign-in.

import { createAccount } from "../src/accounts/index.ts";
import { startServer, type RunningServer, type ServerInput } from "../src/main.ts";
import { freshDatabaseUrl } from "./fresh.ts";

// Signing in over HTTP is the same for in-process servers, processes and bench runs.
export { signIn } from "../../test-kit/sign-in.ts";

export type TestServer = RunningServer;

/** A server on 127.0.0.1, a random port and (unless given) a fresh database file. */
export function startTestServer(input: Partial<ServerInput> = {}): Promise<TestServer> {
  return startServer({
    host: "127.0.0.1",
    port: 0,
    allowPrivateAddresses: true,
    ...input,
    database: input.database ?? freshDatabaseUrl(),
  });
}

export async function addAccount(
  server: TestServer,
  name: string,
  password = `${name}-password`,
  options: { admin?: boolean; permissions?: string[] } = {},
) {
  const result = await createAccount(server.services.db, {
    name,
    password,
    admin: options.admin ?? true,
    ...options,
  });
  if (!result.ok) throw new Error(`account ${name}: ${result.error}`);
  return result.account;
}

/** A Response whose JSON tests may inspect freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestResponse = Omit<Response, "json"> & { json(): Promise<any> };

/** A fetch of /fe/PATH with the bearer token and a JSON body. */
export function fe(
  server: TestServer,
  token: string | null,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(`${server.url}/fe${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === "string"
          ? init.body
          : JSON.stringify(init.body),
  }) as Promise<TestResponse>;
}

/** Creates an actor through the API and returns its document. */
export async function addActor(
  server: TestServer,
  token: string,
  handle?: string,
): Promise<{ id: string } & Record<string, unknown>> {
  const response = await fe(server, token, "/account/create", {
    body: { baseUrl: server.url, handle },
  });
  if (response.status !== 201)
    throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}
