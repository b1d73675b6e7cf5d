// The benches drive Corral only through its public surface, as an operator would: `corral account
// new`, then `corral serve` as a child process (test-kit/corral-process.ts, with any database URL
// and extra flags or environment), then /fe over HTTP through the client here.

import {
  CLI,
  createCorralAccount,
  startCorral,
  type CorralProcess,
} from "../../test-kit/corral-process.ts";
import { signIn } from "../../test-kit/sign-in.ts";

/**
 * Which server/src/cli.ts the benches run: CORRAL_BENCH_CLI names another checkout's (paired
 * before/after runs of one change); by default this one. A call may still name its own
 * (speed-guard.ts runs two checkouts side by side).
 */
export const benchCli = process.env.CORRAL_BENCH_CLI ?? CLI;

/** A client of one Corral's /fe for one account. */
export async function feClient(url: string, name: string, password: string) {
  const token = await signIn(url, name, password);
  return {
    token,
    /** POST /fe/account/create: the new actor's id and shared inbox. */
    async createActor(handle: string) {
      const doc = (await fe(url, token, "/fe/account/create", { baseUrl: url, handle })) as {
        id: string;
        inbox: string;
        endpoints?: { sharedInbox?: string };
      };
      return { id: doc.id, sharedInbox: doc.endpoints?.sharedInbox ?? doc.inbox };
    },
    /** POST /fe/actor/trigger/METHOD, which answers 202 before the work is done. */
    trigger: (method: string, body: Record<string, unknown>) =>
      fe(url, token, `/fe/actor/trigger/${method}`, body),
  };
}

async function fe(url: string, token: string | null, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<unknown>;
}

/**
 * A Corral as every bench starts it: an account by the CLI, `corral serve` on `database`, then
 * the account signed in and one actor made through /fe. The account, password and handle are all
 * `name` (the password with `-password`).
 */
export async function startBenchCorral(options: {
  name: string;
  database: string;
  cli?: string;
  stderr: "pipe" | "inherit" | number;
  args?: string[];
  nodeArgs?: string[];
}) {
  const { name, database, cli = benchCli } = options;
  createCorralAccount(database, name, `${name}-password`, cli);
  const corral: CorralProcess = await startCorral({
    database,
    cli,
    stderr: options.stderr,
    args: options.args,
    nodeArgs: options.nodeArgs,
  });
  const client = await feClient(corral.url, name, `${name}-password`);
  const actor = await client.createActor(name);
  return { corral, client, actor };
}

/** A Create of a Note from `actor` to `to`, with ids under `id`, as the benches send them. */
export const benchNote = (id: string, actor: string, to: string[], label = "bench") => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  id,
  type: "Create",
  actor,
  to,
  object: { id: `${id}/note`, type: "Note", attributedTo: actor, content: `${label} ${id}` },
});
