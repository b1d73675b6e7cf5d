import { randomBytes } from "node:crypto";
import { UniqueViolation, type Db } from "../db/db.ts";
import { generateActorKeyColumns } from "./actor-keys.ts";
import type { ActorProfile } from "./profile.ts";

/** One of our actors, as the rest of the server sees it. */
export interface ActorRow {
  id: string;
  /** The owning account; null once the actor was deleted from its account. */
  accountId: number | null;
  baseUrl: string;
  /** Internal name shown in the console (not public). */
  name: string;
  /** ActivityPub properties merged into the public document (see profile.ts). */
  profile: ActorProfile;
  autoFollow: boolean;
  deleted: boolean;
  deletedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface IdentifierRow {
  identifier: string;
  actorId: string;
  primary: boolean;
}

interface RawActor {
  id: string;
  account_id: number | bigint | null;
  base_url: string;
  name: string;
  profile: string;
  auto_follow: number | bigint;
  created_at: number | bigint;
  updated_at: number | bigint;
  deleted_at: number | bigint | null;
}

const columns = `id, account_id, base_url, name, profile, auto_follow, created_at, updated_at, deleted_at`;

function toActor(row: RawActor): ActorRow {
  return {
    id: row.id,
    accountId: row.account_id == null ? null : Number(row.account_id),
    baseUrl: row.base_url,
    name: row.name,
    profile: JSON.parse(row.profile) as ActorProfile,
    autoFollow: Number(row.auto_follow) === 1,
    deleted: row.deleted_at != null,
    deletedAt: row.deleted_at == null ? null : Number(row.deleted_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** One of our actors by id (deleted ones included, flagged), or undefined. */
export async function findActor(db: Db, id: string): Promise<ActorRow | undefined> {
  const row = await db.get<RawActor>(`SELECT ${columns} FROM actors WHERE id = ?`, [id]);
  return row && toActor(row);
}

/** The live (not deleted) actors of an account, oldest first. */
export async function listActors(db: Db, accountId: number): Promise<ActorRow[]> {
  const rows = await db.all<RawActor>(
    `SELECT ${columns} FROM actors WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at, id`,
    [accountId],
  );
  return rows.map(toActor);
}

/** The identifiers (acct: URIs and others) of an actor, primary first. */
export async function listIdentifiers(db: Db, actorId: string): Promise<IdentifierRow[]> {
  const rows = await db.all<{ identifier: string; actor_id: string; is_primary: number | bigint }>(
    `SELECT identifier, actor_id, is_primary FROM identifiers WHERE actor_id = ? ORDER BY is_primary DESC, created_at, identifier`,
    [actorId],
  );
  return rows.map((r) => ({
    identifier: r.identifier,
    actorId: r.actor_id,
    primary: Number(r.is_primary) === 1,
  }));
}

/** The actor an identifier such as `acct:alice@example.com` names, if it is ours. */
export async function findActorIdByIdentifier(
  db: Db,
  identifier: string,
): Promise<string | undefined> {
  const row = await db.get<{ actor_id: string }>(
    `SELECT actor_id FROM identifiers WHERE identifier = ?`,
    [identifier],
  );
  return row?.actor_id;
}

/** `acct:handle@host`, where host carries the port unless it is the scheme's default. */
export function acctUri(handle: string, baseUrl: string): string {
  return `acct:${handle}@${new URL(baseUrl).host}`;
}

export type CreateActorResult =
  { ok: true; actor: ActorRow } | { ok: false; error: "duplicate-identifier" };

/** Creates an actor `{baseUrl}/actor/{random}` with fresh keys and, given a handle, its acct: URI. */
export async function createActor(
  db: Db,
  input: { accountId: number; baseUrl: string; handle?: string | null; name?: string | null },
): Promise<CreateActorResult> {
  const identifier = input.handle ? acctUri(input.handle, input.baseUrl) : null;
  // Cheap check first, so a taken handle does not cost a key generation.
  if (identifier && (await findActorIdByIdentifier(db, identifier)))
    return { ok: false, error: "duplicate-identifier" };
  const keys = await generateActorKeyColumns();
  const id = `${input.baseUrl}/actor/${randomBytes(16).toString("base64url")}`;
  const now = Date.now();
  const profile: ActorProfile = {};
  try {
    await db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO actors (id, account_id, base_url, name, profile, auto_follow, rsa_private_jwk, rsa_public_jwk,
           ed25519_private_jwk, ed25519_public_jwk, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          input.accountId,
          input.baseUrl,
          input.name || input.handle || id.slice(id.lastIndexOf("/") + 1),
          JSON.stringify(profile),
          keys.rsa_private_jwk,
          keys.rsa_public_jwk,
          keys.ed25519_private_jwk,
          keys.ed25519_public_jwk,
          now,
          now,
        ],
      );
      if (identifier) {
        await tx.run(
          `INSERT INTO identifiers (identifier, actor_id, is_primary, created_at) VALUES (?, ?, 1, ?)`,
          [identifier, id, now],
        );
      }
    });
  } catch (error) {
    if (error instanceof UniqueViolation) return { ok: false, error: "duplicate-identifier" };
    throw error;
  }
  return { ok: true, actor: (await findActor(db, id))! };
}
