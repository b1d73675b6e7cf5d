import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/db.ts";
import type { DeliveryRow } from "../db/deliveries.store.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import { digestOf } from "../activitypub/draft-signing.ts";
import { insertBody } from "./delivery-bodies.store.ts";
import { preparedBodyOf } from "./prepared-bodies.ts";

let db: Db;
afterEach(() => db?.close());

const row = (body_id: number | null, body = ""): DeliveryRow => ({
  id: 1,
  actor_id: "a",
  account_id: 1,
  trigger_id: null,
  inbox: "https://x.example/inbox",
  host: "x.example",
  body,
  body_id,
  routing_key: "send_message",
  original: "",
  attempt: 0,
});

describe("prepared bodies", () => {
  it("reads a stored body once for all its deliveries, with the digest stored beside it", async () => {
    ({ db } = await openFreshDatabase());
    const text = '{"content":"ü"}';
    const id = await insertBody(db, text, digestOf(text));
    const first = await preparedBodyOf(db, row(id));
    // Changed underneath (never done for real): a second delivery still gets what was read.
    await db.run(`UPDATE delivery_bodies SET body = '{}' WHERE id = ?`, [id]);
    const second = await preparedBodyOf(db, row(id));
    expect(second).toBe(first);
    expect(Buffer.from(first!.bytes).toString("utf8")).toBe(text);
    expect(first!.digest).toBe(digestOf(Buffer.from(text, "utf8")));
  });

  it("keeps only the most recent bodies, reading an evicted one again when it is needed", async () => {
    ({ db } = await openFreshDatabase());
    const ids: number[] = [];
    for (let n = 0; n < 300; n++)
      ids.push(await insertBody(db, `{"n":${n}}`, digestOf(`{"n":${n}}`)));
    for (const id of ids) await preparedBodyOf(db, row(id));
    await db.run(`UPDATE delivery_bodies SET body = '{"n":"again"}' WHERE id = ?`, [ids[0]]);
    expect((await preparedBodyOf(db, row(ids[0]!)))?.text).toBe('{"n":"again"}');
    expect((await preparedBodyOf(db, row(ids[299]!)))?.text).toBe('{"n":299}');
  });

  it("answers undefined for a body that is gone, and uses a row's own body from before migration 6", async () => {
    ({ db } = await openFreshDatabase());
    expect(await preparedBodyOf(db, row(12345))).toBeUndefined();
    const legacy = await preparedBodyOf(db, row(null, '{"old":true}'));
    expect(legacy).toMatchObject({ text: '{"old":true}', digest: digestOf('{"old":true}') });
  });
});
