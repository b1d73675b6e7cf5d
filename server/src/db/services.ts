import type { KvStore } from "@fedify/fedify";
import { SqliteKvStore } from "@fedify/sqlite";
import { createMemoryBus, type EventBus } from "./bus.ts";
import type { OpenDatabase } from "./open.ts";
import { createPostgresBus } from "./postgres-bus.ts";
import { PostgresKvStore } from "./postgres-kv.ts";

// What a running server needs beside the Db that differs by dialect, chosen here and nowhere
// else. SQLite: Fedify's own KV store on the same file, and an in-process bus (one process owns
// the file). PostgreSQL: the KV store on the shared pool, and LISTEN/NOTIFY across processes.

export interface ServerStores {
  kv: KvStore;
  bus: EventBus;
}

export async function openServerStores(opened: OpenDatabase, url: string): Promise<ServerStores> {
  if (opened.sqlite) return { kv: new SqliteKvStore(opened.sqlite), bus: createMemoryBus() };
  return { kv: new PostgresKvStore(opened.db), bus: await createPostgresBus(url) };
}
