// What differs in the text and the errors between our `?` SQL and PostgreSQL: placeholders,
// bound values, SQLSTATEs and connection failures. postgres.ts owns the connection itself.

import { UniqueViolation } from "./db.ts";

const translations = new Map<string, string>();

/**
 * Rewrites `?` placeholders as `$1, $2, …`, leaving `?` inside string literals, quoted
 * identifiers and comments alone. Cached: the same statements run again and again.
 */
export function translatePlaceholders(sql: string): string {
  const cached = translations.get(sql);
  if (cached !== undefined) return cached;
  let out = "";
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const end =
      c === "'" || c === '"'
        ? closingQuote(sql, i, c)
        : c === "-" && sql[i + 1] === "-"
          ? lineEnd(sql, i)
          : c === "/" && sql[i + 1] === "*"
            ? commentEnd(sql, i)
            : -1;
    if (end >= 0) {
      out += sql.slice(i, end);
      i = end;
    } else {
      out += c === "?" ? `$${++n}` : c;
      i++;
    }
  }
  if (translations.size < 5000) translations.set(sql, out);
  return out;
}

// A doubled quote inside a literal is an escaped quote, not its end.
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

function lineEnd(sql: string, start: number): number {
  const end = sql.indexOf("\n", start);
  return end < 0 ? sql.length : end;
}

function commentEnd(sql: string, start: number): number {
  const end = sql.indexOf("*/", start + 2);
  return end < 0 ? sql.length : end + 2;
}

/** Binds values the way sqlite.ts does: booleans as 1/0 (our boolean columns are INTEGER), undefined as NULL. */
export function bindParams(params: readonly unknown[]): unknown[] {
  return params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p === undefined ? null : p));
}

interface PgError extends Error {
  code?: string;
  detail?: string;
  constraint_name?: string;
}

/** SQLSTATEs after which running the same work again can succeed. */
export function isRetryable(error: unknown): boolean {
  const code = (error as PgError | null)?.code;
  return code === "40001" || code === "40P01"; // serialization_failure, deadlock_detected
}

/** Turns a unique violation (SQLSTATE 23505) into our dialect-free UniqueViolation. */
export function mapError(error: unknown): unknown {
  const e = error as PgError | null;
  if (e?.name === "PostgresError" && e.code === "23505") {
    return new UniqueViolation(e.detail ? `${e.message}: ${e.detail}` : e.message, {
      cause: error,
    });
  }
  return error;
}

/** Where a URL points, for messages: `host:port` and the database name, never the password. */
export function describeTarget(url: string): { where: string; database: string } {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get("host") || "localhost";
    const database =
      decodeURIComponent(parsed.pathname.slice(1)) ||
      decodeURIComponent(parsed.username) ||
      "postgres";
    return { where: `${host}:${parsed.port || "5432"}`, database };
  } catch {
    return { where: "(unparseable URL)", database: "" };
  }
}

const networkReasons: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  ECONNRESET: "connection reset",
  CONNECT_TIMEOUT: "no answer in time",
  CONNECTION_CLOSED: "the server closed the connection",
};

/** One readable line for a failure to connect, e.g. `cannot reach PostgreSQL at 127.0.0.1:5432: connection refused`. */
export function describeConnectError(url: string, error: unknown): Error {
  const { where, database } = describeTarget(url);
  const e = error as PgError;
  if (e?.name === "PostgresError") {
    if (e.code === "3D000")
      return new Error(`cannot open PostgreSQL database "${database}" at ${where}: ${e.message}`);
    if (e.code?.startsWith("28"))
      return new Error(`cannot sign in to PostgreSQL at ${where}: ${e.message}`);
    return new Error(`cannot use PostgreSQL at ${where}: ${e.message}`);
  }
  const reason = (e?.code && networkReasons[e.code]) || e?.message || String(error);
  return new Error(`cannot reach PostgreSQL at ${where}: ${reason}`, { cause: error });
}
