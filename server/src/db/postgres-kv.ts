import { isDeepStrictEqual } from "node:util";
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import type { Db } from "./db.ts";
import { createPostgresDb, createSql } from "./postgres.ts";

// Fedify's key–value store (cached keys, documents, circuit-breaker state) on our PostgreSQL
// store: no Fedify 2.x PostgreSQL adapter installs here (docs/adr/0003). Keys are stored as their
// JSON text, so a key prefix is a text prefix; values as JSON text; expiry in epoch ms. Expired
// entries are read past here and deleted by the background sweep (db/kv-sweep.store.ts).

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export interface PostgresKvOptions {
  tableName?: string;
}

export class PostgresKvStore implements KvStore {
  readonly #db: Db;
  readonly #ownsDb: boolean;
  readonly #table: string;
  #ready: Promise<void> | undefined;

  /** `source`: the server's PostgreSQL Db, or a `postgres://` URL for a pool of its own. */
  constructor(source: Db | string, options: PostgresKvOptions = {}) {
    this.#table = options.tableName ?? "fedify_kv";
    if (!TABLE_NAME.test(this.#table))
      throw new Error(`invalid table name for the key–value store: ${this.#table}`);
    this.#ownsDb = typeof source === "string";
    this.#db =
      typeof source === "string" ? createPostgresDb(createSql(source, { max: 4 })) : source;
    if (this.#db.dialect !== "postgres")
      throw new Error("PostgresKvStore needs a PostgreSQL database");
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    await this.#init();
    const row = await this.#db.get<{ value: string }>(
      `SELECT value FROM ${this.#table} WHERE key = ? AND (expires IS NULL OR expires > ?)`,
      [encode(key), Date.now()],
    );
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    if (value === undefined) return this.delete(key);
    await this.#init();
    const now = Date.now();
    await this.#db.run(
      `INSERT INTO ${this.#table} (key, value, created, expires) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, created = excluded.created, expires = excluded.expires`,
      [encode(key), JSON.stringify(value), now, expiresAt(now, options)],
    );
  }

  async delete(key: KvKey): Promise<void> {
    await this.#init();
    await this.#db.run(`DELETE FROM ${this.#table} WHERE key = ?`, [encode(key)]);
  }

  async cas(
    key: KvKey,
    expectedValue: unknown,
    newValue: unknown,
    options?: KvStoreSetOptions,
  ): Promise<boolean> {
    await this.#init();
    const k = encode(key);
    return this.#db.transaction(async (tx) => {
      const now = Date.now();
      const row = await tx.get<{ value: string }>(
        `SELECT value FROM ${this.#table} WHERE key = ? AND (expires IS NULL OR expires > ?) FOR UPDATE`,
        [k, now],
      );
      const current = row ? JSON.parse(row.value) : undefined;
      if (!isDeepStrictEqual(current, normalise(expectedValue))) return false;
      if (newValue === undefined) {
        if (row) await tx.run(`DELETE FROM ${this.#table} WHERE key = ?`, [k]);
        return true;
      }
      const value = JSON.stringify(newValue);
      if (row) {
        await tx.run(`UPDATE ${this.#table} SET value = ?, expires = ? WHERE key = ?`, [
          value,
          expiresAt(now, options),
          k,
        ]);
        return true;
      }
      // Absent (or expired) rows cannot be locked: the insert itself decides who wins a race.
      const { changes } = await tx.run(
        `INSERT INTO ${this.#table} (key, value, created, expires) VALUES (?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, created = excluded.created, expires = excluded.expires
         WHERE ${this.#table}.expires IS NOT NULL AND ${this.#table}.expires <= ?`,
        [k, value, now, expiresAt(now, options), now],
      );
      return changes === 1;
    });
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    await this.#init();
    const now = Date.now();
    const rows =
      prefix && prefix.length > 0
        ? await this.#db.all<{ key: string; value: string }>(
            `SELECT key, value FROM ${this.#table}
             WHERE (key = ? OR starts_with(key, ?)) AND (expires IS NULL OR expires > ?) ORDER BY key`,
            [encode(prefix), `${encode(prefix).slice(0, -1)},`, now],
          )
        : await this.#db.all<{ key: string; value: string }>(
            `SELECT key, value FROM ${this.#table} WHERE expires IS NULL OR expires > ? ORDER BY key`,
            [now],
          );
    for (const row of rows)
      yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) };
  }

  /** Ends the pool this store opened for itself (nothing when it was handed the server's Db). */
  async close(): Promise<void> {
    if (this.#ownsDb) await this.#db.close();
  }

  // Created on first use; the advisory lock keeps two processes from racing on CREATE TABLE.
  #init(): Promise<void> {
    this.#ready ??= this.#db
      .transaction(async (tx) => {
        await tx.get(`SELECT pg_advisory_xact_lock(hashtext(?))`, [this.#table]);
        await tx.run(`CREATE TABLE IF NOT EXISTS ${this.#table} (
          key TEXT PRIMARY KEY, value TEXT NOT NULL, created BIGINT NOT NULL, expires BIGINT)`);
        await tx.run(
          `CREATE INDEX IF NOT EXISTS ${this.#table}_expires ON ${this.#table} (expires)`,
        );
      })
      .catch((error: unknown) => {
        this.#ready = undefined; // let the next call try again
        throw error;
      });
    return this.#ready;
  }
}

function encode(key: KvKey): string {
  return JSON.stringify(key);
}

// What a value looks like after a trip through JSON, so that CAS compares like with like.
function normalise(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function expiresAt(now: number, options?: KvStoreSetOptions): number | null {
  return options?.ttl === undefined ? null : now + options.ttl.total({ unit: "millisecond" });
}
