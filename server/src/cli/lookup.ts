// `corral lookup URI`: the console's signed lookup from a terminal, like `fedify lookup`. It runs
// in this process on the same database as the server, so it signs with the actors' stored keys.

import { MemoryKvStore } from "@fedify/fedify";
import { parseConfig } from "../config.ts";
import { chooseActor } from "./choose-actor.ts";
import {
  createCorralFederation,
  createEventLog,
  createMemoryBus,
  createOutgoing,
  lookupUri,
  openStore,
  type ActorRow,
  type Db,
  type Services,
} from "./domain.ts";

export interface LookupCommand {
  command: "lookup";
  uri: string;
  /** The actor to sign as (id or handle); null for the oldest one. */
  as: string | null;
  timeoutMs: number;
  /** Print the parsed form instead of the raw document. */
  parsed: boolean;
  database: string;
  allowPrivateAddresses: boolean;
}

/** Prints the document as pretty JSON; a failure is thrown as an Error with one line. */
export async function runLookup(
  command: LookupCommand,
  print: (text: string) => void = console.log,
): Promise<void> {
  const db = await openStore(command.database);
  try {
    const { actor, actors } = await chooseActor(db, command.as);
    const services = lookupServices(db, command, actors);
    const done = showWaiting(`looking up ${command.uri}, signed as ${actor.id}…`);
    const result = await lookupUri(services, {
      actorId: actor.id,
      uri: command.uri,
      timeoutMs: command.timeoutMs,
    }).finally(done);
    await services.outgoing?.close();
    if ("error" in result) throw new Error(result.error);
    print(JSON.stringify(command.parsed ? result.parsed : result.raw, null, 2));
  } finally {
    await db.close();
  }
}

/**
 * What lookupUri needs, without an HTTP server: our origins are those our actors live on, so
 * their documents are answered from the database as the server would answer them. The Fedify KV
 * store only caches for this one lookup, so it lives in memory.
 */
function lookupServices(db: Db, command: LookupCommand, actors: ActorRow[]): Services {
  const config = parseConfig({
    database: command.database,
    allowPrivateAddresses: command.allowPrivateAddresses,
    baseUrls: [...new Set(actors.map((actor) => actor.baseUrl))],
  });
  const bus = createMemoryBus();
  const outgoing = createOutgoing({
    allowPrivate: command.allowPrivateAddresses,
    site: () => config.baseUrls[0],
  });
  const federation = createCorralFederation({ kv: new MemoryKvStore(), outgoing });
  const events = createEventLog(db, bus, { cap: config.streamCap });
  return { config, db, events, federation, bus, outgoing };
}

/** On a terminal, a line that says what we wait for, erased once done; elsewhere nothing. */
function showWaiting(line: string): () => void {
  if (!process.stderr.isTTY) return () => {};
  process.stderr.write(line);
  return () => process.stderr.write("\r\x1b[K");
}
