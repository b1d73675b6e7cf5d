import { describe, expect, it } from "vitest";
import { insertDeliveries, writeOutcomes } from "../db/deliveries.store.ts";
import { openDatabase } from "../db/open.ts";
import { createTestDatabase } from "../../test/db/postgres-test-database.ts";
import { insertAttempts, type AttemptRow } from "./attempts.store.ts";

// Delivery's grouped writes on PostgreSQL: postgres.js prepares each new statement text on each
// connection (a round trip before its first run), so a group's statement must read the same
// whatever the group's size, and still write every row as given.

describe("delivery's grouped writes on PostgreSQL", () => {
  it("write attempts and delivered outcomes of any group size with one prepared statement each", async () => {
    const database = await createTestDatabase();
    const { db } = await openDatabase(database.url, { pool: 1 });
    try {
      const attempt = (n: number): AttemptRow => ({
        deliveryId: n,
        accountId: n % 2 ? null : 7,
        host: `h${n}.example`,
        inbox: `https://h${n}.example/inbox`,
        at: 1_700_000_000_000 + n,
        status: n % 3 ? 202 : null,
        durationMs: n,
        error: n % 3 ? null : `refused "${n}" ü`,
        response: n % 3 ? "ok" : null,
      });
      const written: AttemptRow[] = [];
      for (const size of [1, 2, 5]) {
        const rows = Array.from({ length: size }, (_, i) => attempt(written.length + i + 1));
        await insertAttempts(db, rows);
        written.push(...rows);
      }
      const read = await db.all<Record<string, unknown>>(
        `SELECT delivery_id, account_id, host, inbox, at, status, duration_ms, error, response
         FROM delivery_attempts ORDER BY delivery_id`,
      );
      expect(read).toEqual(
        written.map((r) => ({
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
      );

      await insertDeliveries(
        db,
        Array.from({ length: 6 }, (_, n) => ({
          actorId: "https://corral.example/actor/a",
          accountId: 1,
          triggerId: null,
          inbox: `https://h${n}.example/inbox`,
          host: `h${n}.example`,
          bodyId: 1,
          routingKey: "send_message",
          original: "{}",
          state: "queued" as const,
          nextAttemptAt: 0,
        })),
      );
      const ids = (await db.all<{ id: number }>(`SELECT id FROM deliveries ORDER BY id`)).map(
        (r) => r.id,
      );
      await writeOutcomes(db, [{ id: ids[0]!, state: "delivered", status: 202, attempt: 1 }]);
      await writeOutcomes(
        db,
        ids.slice(1, 3).map((id) => ({ id, state: "delivered" as const, status: 200, attempt: 2 })),
      );
      await writeOutcomes(
        db,
        ids.slice(3, 6).map((id) => ({ id, state: "delivered" as const, status: 201, attempt: 1 })),
      );
      expect(await db.all(`SELECT state, status, attempt FROM deliveries ORDER BY id`)).toEqual([
        { state: "delivered", status: 202, attempt: 1 },
        { state: "delivered", status: 200, attempt: 2 },
        { state: "delivered", status: 200, attempt: 2 },
        { state: "delivered", status: 201, attempt: 1 },
        { state: "delivered", status: 201, attempt: 1 },
        { state: "delivered", status: 201, attempt: 1 },
      ]);

      const prepared = await db.all<{ statement: string }>(
        `SELECT statement FROM pg_prepared_statements`,
      );
      const count = (start: RegExp) => prepared.filter((p) => start.test(p.statement)).length;
      expect(count(/^\s*INSERT INTO delivery_attempts/)).toBe(1);
      expect(count(/^\s*UPDATE deliveries SET state = 'delivered'/)).toBe(1);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
