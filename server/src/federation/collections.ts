// Followers, following and outbox of our actors, read from their tables, 100 items a page.

import type { Federation } from "@fedify/fedify";
import { Activity } from "@fedify/fedify/vocab";
import { countFollowers, pageFollowers } from "../follows/followers.store.ts";
import { countFollowing, pageFollowing } from "../follows/following.store.ts";
import { countActorObjects, pageActorObjects } from "../objects/objects.store.ts";
import type { Services } from "../services.ts";

const pageSize = 100;

const offsetOf = (cursor: string) => {
  const n = Number.parseInt(cursor, 10);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};
const nextCursor = (offset: number, got: number) => (got < pageSize ? null : String(offset + got));

export function registerCollections(federation: Federation<Services>) {
  federation
    .setFollowersDispatcher("/actor/{identifier}/followers", async (ctx, identifier, cursor) => {
      const actorId = ctx.getActorUri(identifier).href;
      const offset = cursor == null ? 0 : offsetOf(cursor);
      const rows = await pageFollowers(ctx.data.db, actorId, pageSize, offset);
      return {
        items: rows.map((r) => ({
          id: new URL(r.follower_id),
          inboxId: new URL(r.inbox),
          endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null,
        })),
        nextCursor: nextCursor(offset, rows.length),
      };
    })
    .setCounter((ctx, identifier) => countFollowers(ctx.data.db, ctx.getActorUri(identifier).href))
    .setFirstCursor(() => "0");

  federation
    .setFollowingDispatcher("/actor/{identifier}/following", async (ctx, identifier, cursor) => {
      const actorId = ctx.getActorUri(identifier).href;
      const offset = cursor == null ? 0 : offsetOf(cursor);
      const rows = await pageFollowing(ctx.data.db, actorId, pageSize, offset);
      return {
        items: rows.map((id) => new URL(id)),
        nextCursor: nextCursor(offset, rows.length),
      };
    })
    .setCounter((ctx, identifier) => countFollowing(ctx.data.db, ctx.getActorUri(identifier).href))
    .setFirstCursor(() => "0");

  // The outbox lists the activities our actor published (publish_activity, publish_object's
  // Create); objects stored beside them are not activities and are skipped.
  federation
    .setOutboxDispatcher("/actor/{identifier}/outbox", async (ctx, identifier, cursor) => {
      const actorId = ctx.getActorUri(identifier).href;
      const offset = cursor == null ? 0 : offsetOf(cursor);
      const rows = await pageActorObjects(ctx.data.db, actorId, pageSize, offset);
      const items: Activity[] = [];
      for (const data of rows) {
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
      countActorObjects(ctx.data.db, ctx.getActorUri(identifier).href),
    )
    .setFirstCursor(() => "0");
}
