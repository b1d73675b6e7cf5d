// The one interface the rest of the server uses to reach its store. SQL is written once, with `?`
// placeholders and the portable subset of SQL that SQLite and PostgreSQL share; the dialect
// modules translate what differs (placeholders, integer types, transactions).

export type Dialect = "sqlite" | "postgres";

export interface Db {
  readonly dialect: Dialect;
  /** Every row of a query. */
  all<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<T[]>;
  /** The first row of a query, or undefined. */
  get<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<T | undefined>;
  /** A statement without rows; `changes` is the number of rows it touched. */
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
  /** Runs `fn` in one transaction: all its statements land, or none do. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * PostgreSQL: plan the query for these values each time rather than reuse a prepared
   * statement's generic plan, which is blind to them: whether a LIKE pattern is rare (answer
   * from a trigram index) or common (walk the newest rows) decides the plan. Costs a planning
   * per call; SQLite ignores it.
   */
  planEachCall?: boolean;
}

/** Thrown for a unique-constraint violation, whichever the dialect. */
export class UniqueViolation extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UniqueViolation";
  }
}
