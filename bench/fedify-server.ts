// Bare Fedify 2.3.6 for bench/delivery.bench.ts, in its own process: one actor "bench" with an
// RSA and an Ed25519 key, Fedify's in-process queue and memory KV store at their defaults (or a
// ParallelMessageQueue of N workers with `--parallel N`). Prints {url, actorId, sharedInbox} as
// one JSON line. Bench-only routes, outside Fedify:
//   POST /bench/send {activities: [{id, to: [actor ids]}]}: ctx.sendActivity() per activity, each
//        sink actor resolved once with ctx.lookupObject() and remembered (as an app stores them)
//   GET  /bench/received: {distinct, duplicates, lastAt, ids} of the Create activities its inbox accepted

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { getRequestListener } from "@hono/node-server";
import {
  createFederation,
  generateCryptoKeyPair,
  InProcessMessageQueue,
  MemoryKvStore,
  ParallelMessageQueue,
  type MessageQueue,
} from "@fedify/fedify";
import { Create, CryptographicKey, Endpoints, Note, Person } from "@fedify/fedify/vocab";

const { values } = parseArgs({ options: { parallel: { type: "string" } } });
const queue: MessageQueue = values.parallel
  ? new ParallelMessageQueue(new InProcessMessageQueue(), Number(values.parallel))
  : new InProcessMessageQueue();
const federation = createFederation<void>({
  kv: new MemoryKvStore(),
  queue,
  allowPrivateAddress: true,
});
const keys = [
  await generateCryptoKeyPair("RSASSA-PKCS1-v1_5"),
  await generateCryptoKeyPair("Ed25519"),
];

federation
  .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
    if (identifier !== "bench") return null;
    const [rsa] = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      inbox: ctx.getInboxUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: rsa?.cryptographicKey as CryptographicKey,
    });
  })
  .setKeyPairsDispatcher((_ctx, identifier) => (identifier === "bench" ? keys : []));

const received = new Set<string>();
let duplicates = 0;
let lastAt = 0; // epoch ms of the newest distinct arrival
federation.setInboxListeners("/users/{identifier}/inbox", "/inbox").on(Create, (_ctx, create) => {
  const id = create.id?.href ?? "";
  if (received.has(id)) duplicates++;
  else {
    received.add(id);
    lastAt = Date.now();
  }
});

const inboxes = new Map<string, { id: URL; inboxId: URL }>();
const listener = getRequestListener(async (request) => {
  const path = new URL(request.url).pathname;
  if (path === "/bench/received") {
    return Response.json({ distinct: received.size, duplicates, lastAt, ids: [...received] });
  }
  if (path !== "/bench/send") return federation.fetch(request, { contextData: undefined });
  const ctx = federation.createContext(request, undefined);
  const { activities } = (await request.json()) as { activities: { id: string; to: string[] }[] };
  for (const { id, to } of activities) {
    const recipients = [];
    for (const actorId of to) {
      let recipient = inboxes.get(actorId);
      if (!recipient) {
        const actor = await ctx.lookupObject(actorId);
        if (!(actor instanceof Person) || !actor.id || !actor.inboxId)
          return new Response(`cannot resolve ${actorId}`, { status: 502 });
        inboxes.set(actorId, (recipient = { id: actor.id, inboxId: actor.inboxId }));
      }
      recipients.push(recipient);
    }
    const actor = ctx.getActorUri("bench");
    const activity = new Create({
      id: new URL(id),
      actor,
      tos: recipients.map((r) => r.id),
      object: new Note({ id: new URL(`${id}/note`), attribution: actor, content: `bench ${id}` }),
    });
    await ctx.sendActivity({ identifier: "bench" }, recipients, activity);
  }
  return new Response(null, { status: 202 });
});

const server = createServer(listener);
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
process.stdout.write(
  `${JSON.stringify({ url, actorId: `${url}/users/bench`, sharedInbox: `${url}/inbox` })}\n`,
);
// Exit at once (a --cpu-prof profile is written on a normal exit, not on SIGKILL).
process.on("SIGTERM", () => process.exit(0));
