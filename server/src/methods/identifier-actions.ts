import {
  insertIdentifier,
  removeIdentifier,
  setPrimaryIdentifier,
  type ActorRow,
} from "../actors/index.ts";
import type { Db } from "../db/db.ts";
import type { Services } from "../services.ts";
import { MethodError } from "./method-error.ts";

// update_actor's identifier actions. create_identifier makes a new acct: URI on one of our hosts;
// add_identifier records any identifier (a URL, a did:) as the actor's; update_identifier changes
// which is primary; remove_identifier drops one. What remains to check here depends on the
// server (its hosts) and the database (whose identifier it is).

type Action = Record<string, unknown> & { action?: unknown };

export async function applyIdentifierAction(
  tx: Db,
  services: Services,
  actor: ActorRow,
  action: Action,
): Promise<void> {
  // schemas.ts checked the kind and that identifier is a non-empty string.
  const kind = action.action;
  const identifier = String(action.identifier).trim();
  const primary = action.primary === true;
  if (kind === "create_identifier") {
    const match = /^acct:([^@\s]+)@([^@\s]+)$/.exec(identifier);
    const hosts = services.config.baseUrls.map((url) => new URL(url).host);
    if (!match || !hosts.includes(match[2]!)) {
      throw new MethodError(
        `update_actor: create_identifier needs acct:name@host with host one of ${hosts.join(", ")}`,
      );
    }
  }
  if (kind === "create_identifier" || kind === "add_identifier") {
    await insertIdentifier(tx, identifier, actor.id, primary);
  } else if (kind === "update_identifier") {
    if (!(await setPrimaryIdentifier(tx, identifier, actor.id, primary)))
      throw new MethodError(`update_actor: ${identifier} is not an identifier of ${actor.id}`);
  } else if (!(await removeIdentifier(tx, identifier, actor.id))) {
    throw new MethodError(`update_actor: ${identifier} is not an identifier of ${actor.id}`);
  }
}
