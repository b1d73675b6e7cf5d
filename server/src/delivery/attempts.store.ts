import type { Db } from "../db/db.ts";

// The delivery_attempts table: one row per attempt at a delivery (docs/server-guide.md#delivery), written
// in the outcome's transaction; a host's newest and a delivery's own are read back.

export interface AttemptRow {
  deliveryId: number;
  accountId: number | null;
  host: string;
  inbox: string;
  at: number;
  status: number | null;
  durationMs: number;
  error: string | null;
  /** The first 300 bytes of the answer's body (null: no answer). */
  response: string | null;
}

const COLUMNS = `delivery_id, account_id, host, inbox, at, status, duration_ms, error, response`;
const CHUNK = 100;

// PostgreSQL: the rows as one JSON array, so that the statement's text is the same for any
// number of them and postgres.js prepares it once per connection (a VALUES row per attempt made
// each group size a new statement: a Parse/Describe round trip before its first run).
const insertPostgres = `INSERT INTO delivery_attempts (${COLUMNS})
  SELECT ${COLUMNS} FROM json_populate_recordset(NULL::delivery_attempts, (?::text)::json)`;

export async function insertAttempts(tx: Db, rows: AttemptRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    if (tx.dialect === "postgres") {
      await tx.run(insertPostgres, [
        JSON.stringify(
          chunk.map((r) => ({
            delivery_id: r.deliveryId,
            account_id: r.accountId,
            host: r.host,
            inbox: r.inbox,
            at: r.at,
            status: r.status,
            duration_ms: r.durationMs,
            error: r.error,
            response: r.response,
          })),
        ),
      ]);
      continue;
    }
    await tx.run(
      `INSERT INTO delivery_attempts (${COLUMNS}) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
      chunk.flatMap((r) => [
        r.deliveryId,
        r.accountId,
        r.host,
        r.inbox,
        r.at,
        r.status,
        r.durationMs,
        r.error,
        r.response,
      ]),
    );
  }
}

const toRow = (r: Record<string, unknown>): AttemptRow => ({
  deliveryId: Number(r.delivery_id),
  accountId: r.account_id == null ? null : Number(r.account_id),
  host: String(r.host),
  inbox: String(r.inbox),
  at: Number(r.at),
  status: r.status == null ? null : Number(r.status),
  durationMs: Number(r.duration_ms),
  error: r.error == null ? null : String(r.error),
  response: r.response == null ? null : String(r.response),
});

/** The newest `limit` attempts of the account's deliveries to `host`, newest first. */
export async function listHostAttempts(db: Db, accountId: number, host: string, limit: number) {
  const rows = await db.all(
    `SELECT ${COLUMNS} FROM delivery_attempts WHERE account_id = ? AND host = ? ORDER BY id DESC LIMIT ?`,
    [accountId, host, limit],
  );
  return rows.map(toRow);
}

/** Every attempt of each delivery, oldest first, by delivery id. */
export async function listDeliveryAttempts(
  db: Db,
  deliveryIds: number[],
): Promise<Map<number, AttemptRow[]>> {
  const byDelivery = new Map<number, AttemptRow[]>();
  for (let i = 0; i < deliveryIds.length; i += 500) {
    const chunk = deliveryIds.slice(i, i + 500);
    const rows = await db.all(
      `SELECT ${COLUMNS} FROM delivery_attempts WHERE delivery_id IN (${chunk.map(() => "?").join(", ")}) ORDER BY id`,
      chunk,
    );
    for (const row of rows.map(toRow)) {
      const list = byDelivery.get(row.deliveryId);
      if (list) list.push(row);
      else byDelivery.set(row.deliveryId, [row]);
    }
  }
  return byDelivery;
}

/** Deletes attempts made before `before` (their deliveries are swept at the same age). */
export async function deleteOldAttempts(db: Db, before: number): Promise<void> {
  await db.run(`DELETE FROM delivery_attempts WHERE at < ?`, [before]);
}

/** A host's software as its NodeInfo said, and when it was read; undefined: never read. */
export async function findHostSoftware(db: Db, host: string) {
  const row = await db.get<{ name: string | null; version: string | null; checked_at: number }>(
    `SELECT name, version, checked_at FROM host_software WHERE host = ?`,
    [host],
  );
  return row && { name: row.name, version: row.version, checkedAt: Number(row.checked_at) };
}

export async function saveHostSoftware(
  db: Db,
  host: string,
  software: { name: string; version: string | null } | null,
  now: number,
): Promise<void> {
  await db.run(
    `INSERT INTO host_software (host, name, version, checked_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (host) DO UPDATE SET name = excluded.name, version = excluded.version, checked_at = excluded.checked_at`,
    [host, software?.name ?? null, software?.version ?? null, now],
  );
}

/** A URL we know on `host` (an inbox we delivered to), for its scheme; undefined: none. */
export async function findKnownUrl(db: Db, accountId: number, host: string) {
  const row = await db.get<{ inbox: string }>(
    `SELECT inbox FROM deliveries WHERE account_id = ? AND host = ? ORDER BY id DESC LIMIT 1`,
    [accountId, host],
  );
  return row?.inbox;
}
