// Which database errors say "not now" rather than "no": running the same work again can succeed.
// Callers that own work which must not be lost (an accepted trigger) run it again after one of
// these instead of ending it as failed. Both dialects are known here, so callers need neither.

// PostgreSQL SQLSTATEs: serialization_failure, deadlock_detected, transaction outcome unknown,
// too many connections, the server shutting down or starting up; class 08 (connection
// exception) is matched by prefix.
const PG_TRANSIENT = new Set(["40001", "40P01", "40003", "53300", "57P01", "57P02", "57P03"]);

// postgres.js's own codes for a lost connection, and Node's socket errors beneath it.
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

// SQLite's primary result codes SQLITE_BUSY (5) and SQLITE_LOCKED (6); extended codes keep the
// primary one in their low byte.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

interface CodedError {
  code?: unknown;
  errcode?: unknown;
  cause?: unknown;
}

/** True for an error a later run of the same work can avoid: a lost race, a lost connection, a busy file. */
export function isTransientDbError(error: unknown): boolean {
  // Wrapped errors (mapError, describeConnectError) keep the original as their cause.
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, errcode, cause } = e as CodedError;
    if (typeof code === "string") {
      if (PG_TRANSIENT.has(code) || code.startsWith("08") || CONNECTION_CODES.has(code))
        return true;
    }
    if (code === "ERR_SQLITE_ERROR" && typeof errcode === "number") {
      const primary = errcode & 0xff;
      if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) return true;
    }
    e = cause;
  }
  return false;
}
