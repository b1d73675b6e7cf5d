import type { Db, Dialect } from "./db.ts";

// Migrations run in order at start; each runs once and is recorded in schema_migrations.
// `serial` and `blob` differ between dialects; everything else is shared SQL. Times are
// milliseconds since the epoch in BIGINT columns; JSON is stored as TEXT.

interface Migration {
  id: number;
  sql: (types: { serial: string; dialect: Dialect }) => string[];
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
    // Triggers tell the truth (docs/server-guide.md#triggers): every accepted trigger is a row before the
    // 202; deliveries are kept after they end, with their state, so a trigger's record and the
    // per-host health can say what happened; the due index covers only unfinished rows.
    id: 3,
    sql: () => [
      `CREATE TABLE triggers (
        id TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        actor_id TEXT NOT NULL,
        method TEXT NOT NULL,
        body TEXT NOT NULL,
        state TEXT NOT NULL,
        error TEXT,
        sends INTEGER NOT NULL DEFAULT 0,
        locked_until BIGINT NOT NULL DEFAULT 0,
        received_at BIGINT NOT NULL,
        finished_at BIGINT
      )`,
      `CREATE INDEX triggers_pending ON triggers(received_at) WHERE state IN ('queued', 'running')`,
      `CREATE INDEX triggers_account ON triggers(account_id, received_at)`,
      `CREATE TABLE trigger_events (
        trigger_id TEXT NOT NULL REFERENCES triggers(id) ON DELETE CASCADE,
        stream TEXT NOT NULL,
        seq BIGINT NOT NULL,
        PRIMARY KEY (trigger_id, stream, seq)
      )`,
      `ALTER TABLE deliveries ADD COLUMN trigger_id TEXT`,
      `ALTER TABLE deliveries ADD COLUMN host TEXT NOT NULL DEFAULT ''`,
      `ALTER TABLE deliveries ADD COLUMN state TEXT NOT NULL DEFAULT 'queued'`,
      `ALTER TABLE deliveries ADD COLUMN status INTEGER`,
      `ALTER TABLE deliveries ADD COLUMN last_error TEXT`,
      `ALTER TABLE deliveries ADD COLUMN delivered_at BIGINT`,
      `ALTER TABLE deliveries ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0`,
      `DROP INDEX deliveries_due`,
      `CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE state IN ('queued', 'retrying')`,
      `CREATE INDEX deliveries_trigger ON deliveries(trigger_id)`,
      `CREATE INDEX deliveries_host ON deliveries(account_id, host, state)`,
      // Per account and remote host: the operator's hold, and when its current failing began.
      `CREATE TABLE hosts (
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        host TEXT NOT NULL,
        stopped INTEGER NOT NULL DEFAULT 0,
        failing_since BIGINT,
        last_success_at BIGINT,
        last_failure_at BIGINT,
        PRIMARY KEY (account_id, host)
      )`,
      // Failed attempts per host and day (UTC), for failures7d and the console's chart.
      `CREATE TABLE host_days (
        account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        host TEXT NOT NULL,
        day BIGINT NOT NULL,
        failures INTEGER NOT NULL DEFAULT 0,
        successes INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, host, day)
      )`,
    ],
  },
  {
    // Untrusted input (docs/server-guide.md#untrusted-input): failed sign-ins, counted per name and per
    // client address in the database so that every process sees them; activity ids each inbox actor
    // has taken, so that a replay adds nothing.
    id: 4,
    sql: () => [
      `CREATE TABLE signin_failures (
        key TEXT NOT NULL,
        failed_at BIGINT NOT NULL
      )`,
      `CREATE INDEX signin_failures_key ON signin_failures(key, failed_at)`,
      `CREATE INDEX signin_failures_time ON signin_failures(failed_at)`,
      `CREATE TABLE inbox_seen (
        actor_id TEXT NOT NULL,
        activity_id TEXT NOT NULL,
        sender_id TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        stored INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (actor_id, activity_id, sender_id)
      )`,
      `CREATE INDEX inbox_seen_time ON inbox_seen(received_at)`,
    ],
  },
  {
    // Event log: a counter row per stream, bumped in the append's transaction, hands out seqs
    // (docs/adr/0008-event-log-appends.md); it starts at each stream's newest stored event.
    id: 5,
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
  {
    // A delivery's body is stored once however many inboxes it goes to, with its Digest made
    // once (docs/adr/0010); rows queued before keep their own copy in deliveries.body.
    id: 6,
    sql: ({ serial }) => [
      `CREATE TABLE delivery_bodies (
        id ${serial},
        body TEXT NOT NULL,
        digest TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      `ALTER TABLE deliveries ADD COLUMN body_id BIGINT`,
      `CREATE INDEX deliveries_body ON deliveries(body_id)`,
    ],
  },
  {
    // History queries (docs/server-guide.md#history): what each event is about, kept beside it at append
    // time (events/event-meta.ts) so that filters read no JSON; `kind` is the activity's type,
    // `actors` and `hosts` space-separated with a space at each end. Events stored before this
    // have none and match no such filter. The time index serves since/until and cattle_grid's
    // history (ordered by time, then stream, then seq).
    id: 7,
    sql: () => [
      `ALTER TABLE events ADD COLUMN kind TEXT`,
      `ALTER TABLE events ADD COLUMN actors TEXT`,
      `ALTER TABLE events ADD COLUMN hosts TEXT`,
      `CREATE INDEX events_time ON events(account_id, stream, created_at, seq)`,
    ],
  },
  {
    // What the inbox refused and why (docs/server-guide.md#what-the-inbox-refused), the newest 1,000 per
    // account (account 0: attributable to no one, shown to admins); and per account, remote host,
    // UTC day and outcome ('accepted' or a refusal's reason) how many requests and the latest, for
    // a host's inbound side. Neither references accounts: rows are pruned by count and by age
    // instead.
    id: 8,
    sql: ({ serial }) => [
      `CREATE TABLE inbox_refusals (
        id ${serial},
        account_id BIGINT NOT NULL,
        received_at BIGINT NOT NULL,
        client TEXT NOT NULL,
        inbox TEXT NOT NULL,
        key_id TEXT,
        key_host TEXT,
        actor_host TEXT,
        activity_id TEXT,
        activity_type TEXT,
        status INTEGER NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        body TEXT
      )`,
      `CREATE INDEX inbox_refusals_account ON inbox_refusals(account_id, id)`,
      `CREATE TABLE inbound_days (
        account_id BIGINT NOT NULL,
        host TEXT NOT NULL,
        day BIGINT NOT NULL,
        outcome TEXT NOT NULL,
        n INTEGER NOT NULL,
        last_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, host, day, outcome)
      )`,
    ],
  },
  {
    // One host, both directions (docs/api.md#get-feaccounthostshost): every delivery attempt with
    // its answer's start (a host's newest 50, a delivery's own), swept with the deliveries; a
    // host's software from its NodeInfo (read at most daily); why a host's latest failure failed (a
    // host never reached has no delivery attempt to say it); and the hold of a failing host.
    id: 9,
    sql: ({ serial }) => [
      `CREATE TABLE delivery_attempts (
        id ${serial},
        delivery_id BIGINT NOT NULL,
        account_id BIGINT,
        host TEXT NOT NULL,
        inbox TEXT NOT NULL,
        at BIGINT NOT NULL,
        status INTEGER,
        duration_ms INTEGER NOT NULL,
        error TEXT,
        response TEXT
      )`,
      `CREATE INDEX delivery_attempts_delivery ON delivery_attempts(delivery_id)`,
      `CREATE INDEX delivery_attempts_host ON delivery_attempts(account_id, host, id)`,
      `CREATE INDEX delivery_attempts_time ON delivery_attempts(at)`,
      `CREATE TABLE host_software (
        host TEXT PRIMARY KEY,
        name TEXT,
        version TEXT,
        checked_at BIGINT NOT NULL
      )`,
      `ALTER TABLE hosts ADD COLUMN last_error TEXT`,
      `ALTER TABLE hosts ADD COLUMN held_since BIGINT`,
      `ALTER TABLE hosts ADD COLUMN next_probe_at BIGINT`,
      `ALTER TABLE hosts ADD COLUMN hold_reason TEXT`,
    ],
  },
  {
    // Holding a failing host (docs/server-guide.md#delivery): failed attempts in the current run of
    // failures; inboxes that answered 410, not tried for later activities until their host answers
    // again.
    id: 10,
    sql: () => [
      `ALTER TABLE hosts ADD COLUMN run_failures INTEGER NOT NULL DEFAULT 0`,
      `CREATE TABLE gone_inboxes (
        account_id BIGINT NOT NULL,
        host TEXT NOT NULL,
        inbox TEXT NOT NULL,
        since BIGINT NOT NULL,
        PRIMARY KEY (account_id, inbox)
      )`,
      `CREATE INDEX gone_inboxes_host ON gone_inboxes(account_id, host)`,
    ],
  },
  {
    // History's type filter (docs/server-guide.md#history) reads its matches newest first from this index
    // rather than walking the whole stream for a type it holds few or none of. The substring
    // filters' indexes on PostgreSQL need pg_trgm and are made apart (trigram-indexes.ts).
    id: 11,
    sql: () => [`CREATE INDEX events_kind ON events(account_id, stream, kind, seq)`],
  },
  {
    // Events recorded from an upstream's broker (docs/proxy-history.md) keep the id the upstream
    // gave them (cattle_grid's history_id, else the message's id): an event delivered again
    // after a crash between the commit and the acknowledgement is stored once.
    id: 12,
    sql: () => [
      `ALTER TABLE events ADD COLUMN upstream_id TEXT`,
      // Upstream ids first: a batch's ids of all accounts are looked up in one query.
      `CREATE UNIQUE INDEX events_upstream ON events(upstream_id, account_id) WHERE upstream_id IS NOT NULL`,
    ],
  },
  {
    // PostgreSQL's history search (docs/history-search.md): the substring filters' text is
    // copied into event_search after the append has committed, and the pg_trgm indexes cover
    // that table instead of events, so an inbox's append no longer writes a few hundred
    // trigrams per event before its 202. event_search_marks holds, per stream, the newest seq
    // copied; history scans the events above it. SQLite has no trigram index and no copy.
    id: 13,
    sql: ({ dialect }) =>
      dialect === "sqlite"
        ? []
        : [
            `DROP INDEX IF EXISTS events_text_trgm`,
            `DROP INDEX IF EXISTS events_actors_trgm`,
            `DROP INDEX IF EXISTS events_hosts_trgm`,
            `CREATE TABLE event_search (
              account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
              stream TEXT NOT NULL,
              seq BIGINT NOT NULL,
              data TEXT NOT NULL,
              actors TEXT,
              hosts TEXT,
              PRIMARY KEY (account_id, stream, seq)
            )`,
            `CREATE TABLE event_search_marks (
              account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
              stream TEXT NOT NULL,
              indexed_seq BIGINT NOT NULL,
              PRIMARY KEY (account_id, stream)
            )`,
          ],
  },
  {
    // The correlation id a Cattle Drive trigger came with (docs/cattle-drive.md): its events
    // carry it whichever process stores them, not only the one that accepted it.
    id: 14,
    sql: () => [`ALTER TABLE triggers ADD COLUMN correlation_id TEXT`],
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
    dialect,
  };
}
