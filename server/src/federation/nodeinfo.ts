import type { Federation } from "@fedify/fedify";
import { backendVersion } from "../version.ts";
import type { Services } from "../services.ts";

/** NodeInfo 2.1 (and the /.well-known/nodeinfo links to it). */
export function registerNodeInfo(federation: Federation<Services>) {
  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async (ctx) => {
    const db = ctx.data.db;
    const n = async (sql: string) => Number((await db.get<{ n: number | bigint }>(sql))?.n ?? 0);
    return {
      software: { name: "corral", version: backendVersion },
      protocols: ["activitypub"],
      usage: {
        users: { total: await n(`SELECT COUNT(*) AS n FROM actors WHERE deleted_at IS NULL`) },
        localPosts: await n(`SELECT COUNT(*) AS n FROM objects WHERE deleted_at IS NULL`),
        localComments: 0,
      },
      openRegistrations: false,
    };
  });
}
