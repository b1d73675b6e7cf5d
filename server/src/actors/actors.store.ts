import { randomBytes } from "node:crypto";
import { UniqueViolation, type Db } from "../db/db.ts";
import { findActorIdByIdentifier, insertIdentifier } from "./identifiers.store.ts";
import { generateActorKeyColumns, type ActorKeyColumns } from "./key-columns.ts";
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

/**
 * Live actors of any account (or of `accountId`) whose base URL is not one of `baseUrls`: their
 * ids and WebFinger answer 404 from this server. At most `limit`, oldest first.
 */
export async function listActorsOffBaseUrls(
  db: Db,
  baseUrls: string[],
  options: { accountId?: number; limit?: number } = {},
): Promise<ActorRow[]> {
  const served = baseUrls.length > 0 ? baseUrls : [""];
  const rows = await db.all<RawActor>(
    `SELECT ${columns} FROM actors
     WHERE account_id IS NOT NULL AND deleted_at IS NULL
       AND base_url NOT IN (${served.map(() => "?").join(", ")})
       ${options.accountId === undefined ? "" : "AND account_id = ?"}
     ORDER BY created_at, id LIMIT ${Math.max(1, Math.floor(options.limit ?? 1000))}`,
    [...served, ...(options.accountId === undefined ? [] : [options.accountId])],
  );
  return rows.map(toActor);
}

/** The identifiers (acct: URIs and others) of an actor, primary first. */
/** `acct:handle@host`, where host carries the port unless it is the scheme's default. */
export function acctUri(handle: string, baseUrl: string): string {
  return `acct:${handle}@${new URL(baseUrl).host}`;
}

export type CreateActorResult =
  { ok: true; actor: ActorRow } | { ok: false; error: "duplicate-identifier" };

/**
 * Creates an actor `{baseUrl}/actor/{random}` with fresh keys and, given a handle, its acct: URI;
 * `profile` and `autoFollow` are what Cattle Drive's create_actor may set from the start.
 */
export async function createActor(
  db: Db,
  input: {
    accountId: number;
    baseUrl: string;
    handle?: string | null;
    name?: string | null;
    profile?: ActorProfile;
    autoFollow?: boolean;
  },
): Promise<CreateActorResult> {
  const identifier = input.handle ? acctUri(input.handle, input.baseUrl) : null;
  // Cheap check first, so a taken handle does not cost a key generation.
  if (identifier && (await findActorIdByIdentifier(db, identifier)))
    return { ok: false, error: "duplicate-identifier" };
  const keys = await generateActorKeyColumns();
  const id = `${input.baseUrl}/actor/${randomBytes(16).toString("base64url")}`;
  const now = Date.now();
  const profile: ActorProfile = input.profile ?? {};
  try {
    await db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO actors (id, account_id, base_url, name, profile, auto_follow, rsa_private_jwk, rsa_public_jwk,
           ed25519_private_jwk, ed25519_public_jwk, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          input.accountId,
          input.baseUrl,
          input.name || input.handle || id.slice(id.lastIndexOf("/") + 1),
          JSON.stringify(profile),
          input.autoFollow ? 1 : 0,
          keys.rsa_private_jwk,
          keys.rsa_public_jwk,
          keys.ed25519_private_jwk,
          keys.ed25519_public_jwk,
          now,
          now,
        ],
      );
      if (identifier) {
        await insertIdentifier(tx, identifier, id, true);
      }
    });
  } catch (error) {
    if (error instanceof UniqueViolation) return { ok: false, error: "duplicate-identifier" };
    throw error;
  }
  return { ok: true, actor: (await findActor(db, id))! };
}

/** The id of an origin's instance actor (see instance-actor.ts). */
export function instanceActorId(baseUrl: string): string {
  return `${baseUrl}/actor/instance`;
}

/**
 * The instance actor of `baseUrl`, created on first use: an Application of no account. Two
 * processes may race to create it; the loser reads the winner's row.
 */
export async function ensureInstanceActorRow(db: Db, baseUrl: string): Promise<ActorRow> {
  const id = instanceActorId(baseUrl);
  const existing = await findActor(db, id);
  if (existing) return existing;
  const keys = await generateActorKeyColumns();
  const now = Date.now();
  const host = new URL(baseUrl).host;
  const profile: ActorProfile = {
    type: "Application",
    name: `Corral at ${host}`,
    preferredUsername: host,
  };
  try {
    await db.run(
      `INSERT INTO actors (id, account_id, base_url, name, profile, auto_follow, rsa_private_jwk, rsa_public_jwk,
         ed25519_private_jwk, ed25519_public_jwk, created_at, updated_at)
       VALUES (?, NULL, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        baseUrl,
        "instance actor",
        JSON.stringify(profile),
        keys.rsa_private_jwk,
        keys.rsa_public_jwk,
        keys.ed25519_private_jwk,
        keys.ed25519_public_jwk,
        now,
        now,
      ],
    );
  } catch (error) {
    if (!(error instanceof UniqueViolation)) throw error;
  }
  return (await findActor(db, id))!;
}

/** The actor's key columns (JWK text), or undefined for an unknown actor. */
export function findActorKeyColumns(db: Db, id: string): Promise<ActorKeyColumns | undefined> {
  return db.get<ActorKeyColumns>(
    `SELECT rsa_private_jwk, rsa_public_jwk, ed25519_private_jwk, ed25519_public_jwk FROM actors WHERE id = ?`,
    [id],
  );
}

/** The account owning the actor (null when remote, deleted or unknown). */
export async function findActorAccountId(db: Db, id: string): Promise<number | null> {
  const row = await db.get<{ account_id: number | bigint | null }>(
    `SELECT account_id FROM actors WHERE id = ?`,
    [id],
  );
  return row?.account_id == null ? null : Number(row.account_id);
}

/** Those of `ids` that are actors of ours (deleted ones included, flagged), with their account. */
export async function findActorAccounts(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; accountId: number | null; deleted: boolean }[]> {
  const found: { id: string; accountId: number | null; deleted: boolean }[] = [];
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200);
    type Row = {
      id: string;
      account_id: number | bigint | null;
      deleted_at: number | bigint | null;
    };
    // PostgreSQL: the ids as one JSON array, so that the text is the same for any number of them
    // (postgres.js prepares each new text on each pooled connection, a round trip of its own;
    // the inbox asks this for every group of activities, of any size). `= ANY(ARRAY(…))`, not
    // `IN (SELECT …)`: the latter was planned as a scan of all actors.
    const rows =
      db.dialect === "postgres"
        ? await db.all<Row>(
            `SELECT id, account_id, deleted_at FROM actors
             WHERE id = ANY(ARRAY(SELECT json_array_elements_text((?::text)::json)))`,
            [JSON.stringify(chunk)],
          )
        : await db.all<Row>(
            `SELECT id, account_id, deleted_at FROM actors WHERE id IN (${chunk.map(() => "?").join(", ")})`,
            chunk,
          );
    for (const row of rows)
      found.push({
        id: row.id,
        accountId: row.account_id == null ? null : Number(row.account_id),
        deleted: row.deleted_at != null,
      });
  }
  return found;
}

export async function countLiveActors(db: Db): Promise<number> {
  const row = await db.get<{ n: number | bigint }>(
    `SELECT COUNT(*) AS n FROM actors WHERE deleted_at IS NULL AND account_id IS NOT NULL`,
  );
  return Number(row?.n ?? 0);
}

/** update_actor's changes to the row itself. */
export async function updateActorRow(
  db: Db,
  id: string,
  change: { name: string; profile: ActorProfile; autoFollow: boolean },
): Promise<void> {
  await db.run(
    `UPDATE actors SET name = ?, profile = ?, auto_follow = ?, updated_at = ? WHERE id = ?`,
    [change.name, JSON.stringify(change.profile), change.autoFollow ? 1 : 0, Date.now(), id],
  );
}

/** delete_actor: a Tombstone from now on, detached from its account. */
export async function markActorDeleted(db: Db, id: string): Promise<void> {
  const now = Date.now();
  await db.run(`UPDATE actors SET deleted_at = ?, account_id = NULL, updated_at = ? WHERE id = ?`, [
    now,
    now,
    id,
  ]);
}
