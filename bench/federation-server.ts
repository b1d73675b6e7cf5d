// A Corral server for bench/federation.bench.ts, in its own process (so the load generator and
// the server under test do not share an event loop): prints {url, accountId, actorId} as JSON.

import { createAccount } from "../server/src/accounts/index.ts";
import { createActor } from "../server/src/actors/index.ts";
import { startServer } from "../server/src/main.ts";

const [database] = process.argv.slice(2);
const server = await startServer({
  port: 0,
  host: "127.0.0.1",
  database: database!,
  allowPrivateAddresses: true,
  streamCap: 1_000_000,
});
const account = await createAccount(server.services.db, {
  name: "bench",
  password: "bench-password",
  admin: true,
});
if (!account.ok) throw new Error(account.error);
const actor = await createActor(server.services.db, {
  accountId: account.account.id,
  baseUrl: server.url,
  handle: "bench",
});
if (!actor.ok) throw new Error(actor.error);
process.stdout.write(
  `${JSON.stringify({ url: server.url, accountId: account.account.id, actorId: actor.actor.id })}\n`,
);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
