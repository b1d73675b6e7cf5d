// Followers, following and outbox of our actors, read from their tables, 100 items a page.

import type { Federation } from "@fedify/fedify";
import { Activity } from "@fedify/fedify/vocab";
import type { Services } from "../services.ts";

const pageSize = 100;

const offsetOf = (cursor: string) => {
  const n = Number.parseInt(cursor, 10);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};
const nextCursor = (offset: number, got: number) => (got < pageSize ? null : String(offset + got));
const count = async (services: Services, sql: string, actorId: string) =>
  Number((await services.db.get<{ n: number | bigint }>(sql, [actorId]))?.n ?? 0);

export function registerCollections(federation: Federation<Services>) {
  federation
    .setFollowersDispatcher("/actor/{identifier}/followers", async (ctx, identifier, cursor) => {
      const actorId = ctx.getActorUri(identifier).href;
      const offset = cursor == null ? 0 : offsetOf(cursor);
      const rows = await ctx.data.db.all<{
        follower_id: string;
        inbox: string;
        shared_inbox: string | null;
      }>(
        `SELECT follower_id, inbox, shared_inbox FROM followers WHERE actor_id = ? ORDER BY created_at, follower_id LIMIT ? OFFSET ?`,
        [actorId, pageSize, offset],
      );
      return {
        items: rows.map((r) => ({
          id: new URL(r.follower_id),
          inboxId: new URL(r.inbox),
          endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null,
        })),
        nextCursor: nextCursor(offset, rows.length),
      };
    })
    .setCounter((ctx, identifier) =>
      count(
        ctx.data,
        `SELECT COUNT(*) AS n FROM followers WHERE actor_id = ?`,
        ctx.getActorUri(identifier).href,
      ),
    )
    .setFirstCursor(() => "0");

  federation
    .setFollowingDispatcher("/actor/{identifier}/following", async (ctx, identifier, cursor) => {
      const actorId = ctx.getActorUri(identifier).href;
      const offset = cursor == null ? 0 : offsetOf(cursor);
      const rows = await ctx.data.db.all<{ target_id: string }>(
        `SELECT target_id FROM following WHERE actor_id = ? AND accepted = 1 ORDER BY created_at, target_id LIMIT ? OFFSET ?`,
        [actorId, pageSize, offset],
      );
      return {
        items: rows.map((r) => new URL(r.target_id)),
        nextCursor: nextCursor(offset, rows.length),
      };
    })
    .setCounter((ctx, identifier) =>
      count(
        ctx.data,
        `SELECT COUNT(*) AS n FROM following WHERE actor_id = ? AND accepted = 1`,
        ctx.getActorUri(identifier).href,
      ),
    )
    .setFirstCursor(() => "0");

  // The outbox lists the activities our actor published (publish_activity, publish_object's
  // Create); objects stored beside them are not activities and are skipped.
  federation
    .setOutboxDispatcher("/actor/{identifier}/outbox", async (ctx, identifier, cursor) => {
      const actorId = ctx.getActorUri(identifier).href;
      const offset = cursor == null ? 0 : offsetOf(cursor);
      const rows = await ctx.data.db.all<{ data: string }>(
        `SELECT data FROM objects WHERE actor_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
        [actorId, pageSize, offset],
      );
      const items: Activity[] = [];
      for (const row of rows) {
        const data = JSON.parse(row.data) as Record<string, unknown>;
        if (data.actor !== actorId) continue;
        try {
          const object = await Activity.fromJsonLd(data, {
            documentLoader: ctx.documentLoader,
            contextLoader: ctx.contextLoader,
          });
          items.push(object);
        } catch {
          // A stored payload Fedify cannot read stays dereferenceable by id, just not listed.
        }
      }
      return { items, nextCursor: nextCursor(offset, rows.length) };
    })
    .setCounter((ctx, identifier) =>
      count(
        ctx.data,
        `SELECT COUNT(*) AS n FROM objects WHERE actor_id = ? AND deleted_at IS NULL`,
        ctx.getActorUri(identifier).href,
      ),
    )
    .setFirstCursor(() => "0");
}
