import postgres from "postgres";
import type { Db, QueryOptions } from "./db.ts";
import { stopSearchIndexing } from "./event-search.store.ts";
import {
  bindParams,
  describeConnectError,
  isRetryable,
  mapError,
  translatePlaceholders,
} from "./postgres-sql.ts";

// PostgreSQL through postgres.js, on a pool. Lone statements run at PostgreSQL's default
// isolation (READ COMMITTED; callers use ON CONFLICT and SKIP LOCKED where they race).
// transaction() runs SERIALIZABLE and is retried on a serialization failure or deadlock, so a
// read-modify-write transaction behaves as on SQLite, where transactions never interleave; fn
// may therefore run more than once and must only touch the database. Two differences from
// SQLite remain that callers must respect:
// - inside transaction(fn), use the `tx` handed to fn: the outer Db runs on another connection
//   and would wait for the transaction's row locks;
// - a failed statement aborts a PostgreSQL transaction: to carry on after catching an error,
//   wrap the statement in a nested tx.transaction(), which is a savepoint here.

type Sql = postgres.Sql<{ bigint: number }>;
type Runner = Sql | postgres.TransactionSql<{ bigint: number }>;

export interface PostgresOptions {
  /** Seconds to wait for a connection before giving up; the CLI wants a quick, clear failure. */
  connectTimeout?: number;
  /** Pool size. */
  max?: number;
  /**
   * How often transaction() runs its function before a serialization failure or deadlock goes
   * to the caller (default 30). Tests lower it to see what callers do with one.
   */
  transactionAttempts?: number;
}

// Enough for a few dozen transactions racing on the same rows (each round, one of them commits).
const MAX_ATTEMPTS = 30;

/** Creates a postgres.js pool configured the way every Corral module needs it. */
export function createSql(url: string, options: PostgresOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeout ?? 5,
    // Array types are not in the shared SQL subset; skipping their lookup saves a round trip.
    fetch_types: false,
    onnotice: () => {}, // "relation already exists, skipping" and the like are not news
    connection: { application_name: "corral" },
    // COUNT(*), BIGINT columns and SUM/AVG come back as JS numbers, as they do from SQLite.
    types: {
      bigint: {
        to: 20,
        from: [20, 1700],
        serialize: (x: unknown) => String(x),
        parse: (x: string) => Number(x),
      },
    },
  }) as unknown as Sql;
}

/** Connects, proving the server answers, and returns the Db on top of the pool. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Db> {
  const sql = createSql(url, options);
  await probe(sql, url, options.connectTimeout ?? 5);
  return createPostgresDb(sql, options);
}

/**
 * Runs `SELECT 1` under a deadline of its own: postgres.js reconnects forever when something
 * that is not PostgreSQL answers on the port, so its connect_timeout alone does not fail fast.
 */
export async function probe(sql: Sql, url: string, seconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error("timeout"), { code: "CONNECT_TIMEOUT" })),
      seconds * 1000 + 500,
    );
  });
  try {
    await Promise.race([sql.unsafe("SELECT 1"), deadline]);
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => {});
    throw describeConnectError(url, error);
  } finally {
    clearTimeout(timer);
  }
}

/** A Db on a pool (or, inside transaction(), on the transaction's own connection). */
export function createPostgresDb(sql: Sql, options: { transactionAttempts?: number } = {}): Db {
  const attempts = options.transactionAttempts ?? MAX_ATTEMPTS;
  return wrap(sql, false, () => sql.end({ timeout: 5 }), attempts);
}

function wrap(
  runner: Runner,
  inTransaction: boolean,
  end: () => Promise<void>,
  maxAttempts = MAX_ATTEMPTS,
): Db {
  const query = async (text: string, params: readonly unknown[], prepare = true) => {
    const statement = translatePlaceholders(text);
    const values = bindParams(params) as postgres.ParameterOrJSON<never>[];
    // A lone statement that lost a deadlock or serialization race had no effect: run it again.
    // Inside a transaction the whole transaction is retried instead (see transaction()).
    for (let attempt = 1; ; attempt++) {
      try {
        // An unnamed statement (prepare: false) is planned with its values at every call.
        return await runner.unsafe(statement, values, { prepare });
      } catch (error) {
        if (inTransaction || !isRetryable(error) || attempt >= MAX_ATTEMPTS) throw mapError(error);
        await pause(attempt);
      }
    }
  };

  const db: Db = {
    dialect: "postgres",
    async all<T>(text: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      return [...(await query(text, params, !options.planEachCall))] as T[];
    },
    async get<T>(text: string, params: readonly unknown[] = []) {
      return (await query(text, params))[0] as T | undefined;
    },
    async run(text: string, params: readonly unknown[] = []) {
      return { changes: (await query(text, params)).count ?? 0 };
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      if (inTransaction) {
        const tx = runner as postgres.TransactionSql<{ bigint: number }>;
        return (await tx.savepoint((inner) => fn(wrap(inner, true, end, maxAttempts)))) as T;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          return (await (runner as Sql).begin("isolation level serializable", (tx) =>
            fn(wrap(tx, true, end, maxAttempts)),
          )) as T;
        } catch (error) {
          if (!isRetryable(error) || attempt >= maxAttempts) throw mapError(error);
          await pause(attempt);
        }
      }
    },
    // The pool's own Db first stops copying events into history's search table (its timer
    // would otherwise run on a closed pool).
    close: inTransaction
      ? end
      : async () => {
          await stopSearchIndexing(db);
          await end();
        },
  };
  return db;
}

// Jittered exponential backoff (capped), so that the losers of one race do not collide again.
function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));
}
