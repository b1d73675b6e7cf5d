// Creating an actor for an account, with the base URL rules of POST /fe/account/create; a
// Cattle Drive `request.create_actor` (cattle-drive/requests.ts) goes through the same rules.

import { actorDocument, createActor, type ActorProfile } from "../actors/index.ts";
import { z } from "zod";
import type { Services } from "../services.ts";
import { allowedBaseUrls, type Account } from "./accounts.store.ts";

/** What a handle (acct:HANDLE@host) may be. */
export const handleRule = z
  .string()
  .regex(
    /^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,63}$/,
    "handle may hold letters, digits, _ . - (at most 64)",
  );
/** The internal name shown in the console. */
export const actorNameRule = z.string().max(200);

export interface NewActor {
  baseUrl: string;
  handle?: string | null;
  name?: string | null;
  /** Merged into the new actor's profile (name, summary, icon, …). */
  profile?: Record<string, unknown>;
  autoFollow?: boolean | null;
}

export type CreateForAccountResult =
  | { ok: true; document: Record<string, unknown> & { id: string } }
  | { ok: false; status: 400 | 403 | 409; reason: string };

export async function createActorForAccount(
  services: Services,
  account: Account,
  input: NewActor,
): Promise<CreateForAccountResult> {
  const servers = services.config.baseUrls;
  const baseUrl = normaliseOrigin(input.baseUrl);
  if (!baseUrl || !servers.includes(baseUrl)) {
    return {
      ok: false,
      status: 400,
      reason: `baseUrl must be one of this server's: ${servers.join(", ")}`,
    };
  }
  if (!allowedBaseUrls(account, servers).includes(baseUrl)) {
    return { ok: false, status: 403, reason: `This account may not create actors on ${baseUrl}` };
  }
  // Profile and autoFollow are written with the actor, in its one transaction: no actor exists
  // without them (a client whose create_actor went unanswered cannot retry a taken handle).
  const result = await createActor(services.db, {
    accountId: account.id,
    baseUrl,
    handle: input.handle,
    name: input.name,
    profile: input.profile as ActorProfile | undefined,
    autoFollow: input.autoFollow ?? false,
  });
  if (!result.ok) return { ok: false, status: 409, reason: "Duplicate identifier" };
  return {
    ok: true,
    document: (await actorDocument(services.db, result.actor)) as Record<string, unknown> & {
      id: string;
    },
  };
}

function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.pathname === "/" || url.pathname === "" ? url.origin : null;
  } catch {
    return null;
  }
}
