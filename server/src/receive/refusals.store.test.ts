import { afterAll, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import {
  addInboundCounts,
  inboundByOutcome,
  insertRefusals,
  KEEP_PER_ACCOUNT,
  listRefusals,
  trimRefusals,
  type RefusalRow,
} from "./refusals.store.ts";

// The refusal record stays bounded (docs/server-guide.md#what-the-inbox-refused): the newest 1,000 per
// account, each account trimmed on its own. (On PostgreSQL too: test/db/postgres-suite.config.ts.)

const open: Db[] = [];
afterAll(() => Promise.all(open.map((db) => db.close())));

const row = (accountId: number, n: number): RefusalRow => ({
  accountId,
  receivedAt: n,
  client: "192.0.2.1",
  inbox: "https://here.example/inbox",
  keyId: null,
  keyHost: "there.example",
  actorHost: null,
  activityId: `https://there.example/${n}`,
  activityType: "Create",
  status: 401,
  reason: "unsigned",
  detail: "the request is not signed",
  body: null,
});

it("keeps the newest 1,000 refusals of each account", async () => {
  const { db } = await openFreshDatabase();
  open.push(db);
  const rows = Array.from({ length: KEEP_PER_ACCOUNT + 30 }, (_, n) => row(1, n));
  for (let i = 0; i < rows.length; i += 100) await insertRefusals(db, rows.slice(i, i + 100));
  await insertRefusals(db, [row(2, 0)]);
  const kept = await listRefusals(db, { accountIds: [1], limit: 5000 });
  expect(kept).toHaveLength(KEEP_PER_ACCOUNT);
  expect(kept[0]!.receivedAt).toBe(KEEP_PER_ACCOUNT + 29);
  expect(kept.at(-1)!.receivedAt).toBe(30);
  expect(await listRefusals(db, { accountIds: [2], limit: 10 })).toHaveLength(1);

  // Trimmed now and then, not per insert: until then the rows wait, never shown; then they go.
  const stored = async () =>
    (await db.all<{ n: number }>(`SELECT COUNT(*) AS n FROM inbox_refusals WHERE account_id = 1`))
      .map((r) => Number(r.n))
      .at(0);
  expect(await stored()).toBe(KEEP_PER_ACCOUNT + 30);
  await trimRefusals(db, [1, 2]);
  expect(await stored()).toBe(KEEP_PER_ACCOUNT);
  expect(await listRefusals(db, { accountIds: [1], limit: 5000 })).toEqual(kept);
  expect(await listRefusals(db, { accountIds: [2], limit: 10 })).toHaveLength(1);
});

it("adds inbound counts and keeps the latest time", async () => {
  const { db } = await openFreshDatabase();
  open.push(db);
  const day = Math.floor(Date.now() / 86_400_000);
  const count = { accountId: 1, host: "there.example", day, outcome: "accepted" };
  await addInboundCounts(db, [{ ...count, n: 2, lastAt: 2000 }]);
  await addInboundCounts(db, [{ ...count, n: 3, lastAt: 1000 }]);
  const counts = await inboundByOutcome(db, [1], "there.example", Date.now());
  expect(counts.get("accepted")).toEqual({ n: 5, lastAt: 2000 });
});
