import { getLogger } from "@logtape/logtape";
import type { Db } from "./db.ts";

// History's substring filters on PostgreSQL (docs/history-search.md): `q=` (data ILIKE under the
// "C" collation), `actor=` and `host=` (LIKE on the space-separated columns) answer from pg_trgm
// GIN indexes, which serve LIKE/ILIKE '%…%' with a recheck of each candidate row, so results
// are exactly those of the scan they replace. Without them a rare word scans every retained
// event of the stream (measured: 340 ms for `all` with 10,000 per stream under load).
//
// pg_trgm ships in PostgreSQL's contrib (Debian: postgresql-contrib, included in the server
// package from 10 on; some minimal images leave it out) and is a trusted extension, so a database
// owner may create it. It is not a numbered migration: a server without it still runs (the
// filters scan, slower, said in one log line), and the next start after it is installed builds
// the indexes. SQLite has no such index; its scans stay within the target (bench/history.bench.ts).
//
// The indexes cover event_search, the copy of each event's searchable text that is made after
// its append has committed (event-search.store.ts), not events: a ~900-byte event yields a few
// hundred trigrams, and writing them in the append cost the inbox (measured here, 2 busy cores:
// 10,000 such rows inserted in 3.5–5.6 s with the text index against 0.1–0.2 s without).

const log = getLogger(["corral", "db"]);

/** Index name → the column it covers (with the collation the query compares under). */
const INDEXES: Record<string, string> = {
  event_search_text_trgm: `data COLLATE "C"`,
  event_search_actors_trgm: `actors`,
  event_search_hosts_trgm: `hosts`,
};

// The lock migrations take turns on: processes starting together build the indexes once.
const LOCK = 0x636f7272;

/** Creates pg_trgm and the history indexes when missing; says in one line why it could not. */
export async function ensureTrigramIndexes(db: Db): Promise<void> {
  if (db.dialect !== "postgres" || (await missingIndexes(db)).length === 0) return;
  const available = await db.get(
    `SELECT 1 AS ok FROM pg_available_extensions WHERE name = 'pg_trgm'`,
  );
  if (!available) {
    log.warn(
      "PostgreSQL has no pg_trgm extension (install the server's contrib package): history's text, actor and host filters scan each stream without an index, slower past a few thousand events",
    );
    return;
  }
  try {
    await db.transaction(async (tx) => {
      await tx.run(`SELECT pg_advisory_xact_lock(${LOCK})`);
      await tx.run(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
      for (const name of await missingIndexes(tx))
        await tx.run(
          `CREATE INDEX IF NOT EXISTS ${name} ON event_search USING gin (${INDEXES[name]} gin_trgm_ops)`,
        );
    });
  } catch (error) {
    log.warn(
      "could not set up pg_trgm for history's indexes ({reason}): text, actor and host filters scan each stream without an index, slower past a few thousand events",
      { reason: (error as Error).message },
    );
  }
}

async function missingIndexes(db: Db): Promise<string[]> {
  const missing: string[] = [];
  for (const name of Object.keys(INDEXES)) {
    const row = await db.get<{ found: string | null }>(`SELECT to_regclass(?) AS found`, [name]);
    if (!row?.found) missing.push(name);
  }
  return missing;
}
