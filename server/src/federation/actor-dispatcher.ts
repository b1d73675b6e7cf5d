import type { Federation } from "@fedify/fedify";
import {
  findActor,
  findActorIdByIdentifier,
  loadActorKeys,
  serializeActor,
} from "../actors/index.ts";
import type { Services } from "../services.ts";

/** `{baseUrl}/actor/{random}`: the document, a Tombstone (410) once deleted, and the signing key. */
export function registerActorDispatcher(federation: Federation<Services>) {
  federation
    .setActorDispatcher("/actor/{identifier}", async (ctx, identifier) => {
      const actor = await findActor(ctx.data.db, ctx.getActorUri(identifier).href);
      if (!actor) return null;
      return serializeActor(ctx.data.db, actor);
    })
    // Only the RSA key: Fedify names the n-th key `#key-n`, while our Ed25519 key is published
    // as `#ed25519-key`; handing it over would make Fedify sign proofs with an unresolvable id.
    .setKeyPairsDispatcher(async (ctx, identifier) => {
      const keys = await loadActorKeys(ctx.data.db, ctx.getActorUri(identifier).href);
      return keys ? [keys.rsa] : [];
    })
    // WebFinger: `acct:handle@host` (host with its port unless default) through the identifiers table.
    .mapHandle(async (ctx, username) => {
      const actorId = await findActorIdByIdentifier(ctx.data.db, `acct:${username}@${ctx.host}`);
      if (!actorId) return null;
      const parsed = ctx.parseUri(new URL(actorId));
      return parsed?.type === "actor" ? parsed.identifier : null;
    });
}
