import type { Federation } from "@fedify/fedify";
import { countLiveActors } from "../actors/index.ts";
import { countLiveObjects } from "../objects/objects.store.ts";
import { backendVersion } from "../version.ts";
import type { Services } from "../services.ts";

/** NodeInfo 2.1 (and the /.well-known/nodeinfo links to it). */
export function registerNodeInfo(federation: Federation<Services>) {
  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async (ctx) => {
    const db = ctx.data.db;
    return {
      software: { name: "corral", version: backendVersion },
      protocols: ["activitypub"],
      usage: {
        users: { total: await countLiveActors(db) },
        localPosts: await countLiveObjects(db),
        localComments: 0,
      },
      openRegistrations: false,
    };
  });
}
