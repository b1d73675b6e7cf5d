import type { Db, Dialect } from "./db.ts";

// Migrations run in order at start; each runs once and is recorded in schema_migrations.
// `serial` and `blob` differ between dialects; everything else is shared SQL. Times are
// milliseconds since the epoch in BIGINT columns; JSON is stored as TEXT.

interface Migration {
  id: number;
  sql: (types: { serial: string }) => string[];
}

const migrations: Migration[] = [
  {
    id: 1,
    sql: ({ serial }) => [
      `CREATE TABLE accounts (
        id ${serial},
        name TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        admin INTEGER NOT NULL DEFAULT 0,
        permissions TEXT NOT NULL DEFAULT '[]',
        created_at BIGINT NOT NULL
      )`,
      `CREATE TABLE tokens (
        hash TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
      )`,
      `CREATE INDEX tokens_account ON tokens(account_id)`,
      `CREATE TABLE actors (
        id TEXT PRIMARY KEY,
        account_id BIGINT REFERENCES accounts(id) ON DELETE SET NULL,
        base_url TEXT NOT NULL,
        name TEXT NOT NULL,
        profile TEXT NOT NULL DEFAULT '{}',
        auto_follow INTEGER NOT NULL DEFAULT 0,
        rsa_private_jwk TEXT NOT NULL,
        rsa_public_jwk TEXT NOT NULL,
        ed25519_private_jwk TEXT NOT NULL,
        ed25519_public_jwk TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        deleted_at BIGINT
      )`,
      `CREATE INDEX actors_account ON actors(account_id)`,
      `CREATE TABLE identifiers (
        identifier TEXT PRIMARY KEY,
        actor_id TEXT NOT NULL REFERENCES actors(id) ON DELETE CASCADE,
        is_primary INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL
      )`,
      `CREATE INDEX identifiers_actor ON identifiers(actor_id)`,
      `CREATE TABLE followers (
        actor_id TEXT NOT NULL REFERENCES actors(id) ON DELETE CASCADE,
        follower_id TEXT NOT NULL,
        inbox TEXT NOT NULL,
        shared_inbox TEXT,
        follow_id TEXT,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (actor_id, follower_id)
      )`,
      `CREATE TABLE following (
        actor_id TEXT NOT NULL REFERENCES actors(id) ON DELETE CASCADE,
        target_id TEXT NOT NULL,
        follow_id TEXT,
        accepted INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (actor_id, target_id)
      )`,
      `CREATE TABLE objects (
        id TEXT PRIMARY KEY,
        actor_id TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        deleted_at BIGINT
      )`,
      `CREATE TABLE events (
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        stream TEXT NOT NULL,
        seq BIGINT NOT NULL,
        data TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, stream, seq)
      )`,
      `CREATE TABLE deliveries (
        id ${serial},
        actor_id TEXT NOT NULL,
        inbox TEXT NOT NULL,
        body TEXT NOT NULL,
        routing_key TEXT NOT NULL,
        original TEXT NOT NULL,
        attempt INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        locked_until BIGINT NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL
      )`,
      `CREATE INDEX deliveries_due ON deliveries(next_attempt_at)`,
    ],
  },
  {
    // Federation: error events of a delivery go to the account that sent it, even after the
    // sending actor was deleted (and so detached from its account).
    id: 2,
    sql: () => [`ALTER TABLE deliveries ADD COLUMN account_id BIGINT`],
  },
  {
    // Event log: a counter row per stream, bumped in the append's transaction, hands out seqs
    // (docs/adr/0006-event-log-appends.md); it starts at each stream's newest stored event.
    id: 3,
    sql: () => [
      `CREATE TABLE event_streams (
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        stream TEXT NOT NULL,
        seq BIGINT NOT NULL,
        PRIMARY KEY (account_id, stream)
      )`,
      `INSERT INTO event_streams (account_id, stream, seq)
        SELECT account_id, stream, MAX(seq) FROM events GROUP BY account_id, stream`,
      // Sweeping expired sign-in tokens without reading the whole table.
      `CREATE INDEX tokens_expires ON tokens(expires_at)`,
    ],
  },
];

/** True when every migration this build knows has been applied (/readyz answers 200 only then). */
export async function migrationsDone(db: Db): Promise<boolean> {
  const applied = new Set(
    (await db.all<{ id: number }>(`SELECT id FROM schema_migrations`)).map((r) => Number(r.id)),
  );
  return migrations.every((migration) => applied.has(migration.id));
}

// Any fixed number: PostgreSQL processes migrating one database take turns on this lock.
const MIGRATION_LOCK = 0x636f7272; // "corr"

export async function migrate(db: Db): Promise<void> {
  // Two PostgreSQL processes starting at once would race on CREATE TABLE IF NOT EXISTS (the
  // loser gets 'type "schema_migrations" already exists'); the lock, held until each transaction
  // ends, makes the second wait and then find the table and the migrations done.
  const takeTurn = async (tx: Db) => {
    if (db.dialect === "postgres") await tx.run(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
  };
  await db.transaction(async (tx) => {
    await takeTurn(tx);
    await tx.run(
      `CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`,
    );
  });
  const done = new Set(
    (await db.all<{ id: number }>(`SELECT id FROM schema_migrations`)).map((r) => Number(r.id)),
  );
  const types = serialType(db.dialect);
  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    await db.transaction(async (tx) => {
      await takeTurn(tx);
      if (await tx.get(`SELECT id FROM schema_migrations WHERE id = ?`, [migration.id])) return;
      await tx.run(`INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)`, [
        migration.id,
        Date.now(),
      ]);
      for (const statement of migration.sql(types)) await tx.run(statement);
    });
  }
}

function serialType(dialect: Dialect) {
  return {
    serial: dialect === "sqlite" ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY",
  };
}
