import { UniqueViolation, type Db } from "../db/db.ts";
import { hashPassword } from "./passwords.ts";

/** cattle_grid's rule for account names. */
export const accountNamePattern = /^[a-zA-Z0-9_]{1,16}$/;

export interface Account {
  id: number;
  name: string;
  admin: boolean;
  permissions: string[];
  createdAt: number;
  /** Only holds an upstream account's recorded events (proxy mode): it never signs in here. */
  recorded: boolean;
}

interface RawAccount {
  id: number | bigint;
  name: string;
  admin: number | bigint;
  permissions: string;
  created_at: number | bigint;
  password_hash: string;
}

/** The password hash of a recorded account: no password hashes to it. */
const RECORDED = "recorded-from-upstream";

const toAccount = (row: RawAccount): Account => ({
  id: Number(row.id),
  name: row.name,
  admin: Number(row.admin) === 1,
  permissions: JSON.parse(row.permissions) as string[],
  createdAt: Number(row.created_at),
  recorded: row.password_hash === RECORDED,
});

export type CreateAccountResult =
  { ok: true; account: Account } | { ok: false; error: "invalid-name" | "name-taken" };

export async function createAccount(
  db: Db,
  input: { name: string; password: string; admin?: boolean; permissions?: string[] },
): Promise<CreateAccountResult> {
  if (!accountNamePattern.test(input.name)) return { ok: false, error: "invalid-name" };
  const hash = await hashPassword(input.password);
  try {
    await db.run(
      `INSERT INTO accounts (name, password_hash, admin, permissions, created_at) VALUES (?, ?, ?, ?, ?)`,
      [input.name, hash, input.admin ? 1 : 0, JSON.stringify(input.permissions ?? []), Date.now()],
    );
  } catch (error) {
    if (error instanceof UniqueViolation) return { ok: false, error: "name-taken" };
    throw error;
  }
  return { ok: true, account: (await findAccountByName(db, input.name))! };
}

/**
 * The local row under which an upstream account's recorded events are kept (proxy mode), made on
 * first use. Its password hash matches no password: it never signs in here.
 */
export async function ensureRecordedAccount(db: Db, name: string): Promise<number> {
  const found = await findAccountByName(db, name);
  if (found) return found.id;
  try {
    await db.run(
      `INSERT INTO accounts (name, password_hash, admin, permissions, created_at) VALUES (?, ?, 0, '[]', ?)`,
      [name, RECORDED, Date.now()],
    );
  } catch (error) {
    if (!(error instanceof UniqueViolation)) throw error;
  }
  return (await findAccountByName(db, name))!.id;
}

export async function findAccountByName(db: Db, name: string): Promise<Account | undefined> {
  const row = await db.get<RawAccount>(`SELECT * FROM accounts WHERE name = ?`, [name]);
  return row && toAccount(row);
}

export async function findAccountById(db: Db, id: number): Promise<Account | undefined> {
  const row = await db.get<RawAccount>(`SELECT * FROM accounts WHERE id = ?`, [id]);
  return row && toAccount(row);
}

/** The stored password hash of an account, for sign-in. */
export async function findPasswordHash(
  db: Db,
  name: string,
): Promise<{ id: number; hash: string } | undefined> {
  const row = await db.get<RawAccount>(`SELECT id, password_hash FROM accounts WHERE name = ?`, [
    name,
  ]);
  return row && { id: Number(row.id), hash: row.password_hash };
}

export async function listAccounts(db: Db): Promise<Account[]> {
  return (await db.all<RawAccount>(`SELECT * FROM accounts ORDER BY name`)).map(toAccount);
}

export async function countAccounts(db: Db): Promise<number> {
  return Number(
    (await db.get<{ n: number | bigint }>(`SELECT COUNT(*) AS n FROM accounts`))?.n ?? 0,
  );
}

/**
 * Deletes an account with its tokens and events; its actors are tombstoned (they stay
 * resolvable as deleted, so remote servers learn they are gone). False when there is no such account.
 */
export async function deleteAccount(db: Db, name: string): Promise<boolean> {
  const account = await findAccountByName(db, name);
  if (!account) return false;
  await db.transaction(async (tx) => {
    const now = Date.now();
    await tx.run(
      `UPDATE actors SET deleted_at = ?, updated_at = ?, account_id = NULL WHERE account_id = ?`,
      [now, now, account.id],
    );
    await tx.run(`DELETE FROM tokens WHERE account_id = ?`, [account.id]);
    await tx.run(`DELETE FROM events WHERE account_id = ?`, [account.id]);
    await tx.run(`DELETE FROM accounts WHERE id = ?`, [account.id]);
  });
  return true;
}

/** Sets a new password and revokes every token, so old sessions end; the account's id, or null. */
export async function setPassword(db: Db, name: string, password: string): Promise<number | null> {
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const account = await findAccountByName(tx, name);
    if (!account) return null;
    await tx.run(`UPDATE accounts SET password_hash = ? WHERE id = ?`, [hash, account.id]);
    await tx.run(`DELETE FROM tokens WHERE account_id = ?`, [account.id]);
    return account.id;
  });
}

/** The base URLs an account may create actors on: all for admins, else those its permissions name. */
export function allowedBaseUrls(account: Account, serverBaseUrls: string[]): string[] {
  if (account.admin) return serverBaseUrls;
  const granted = new Set(account.permissions);
  return serverBaseUrls.filter((url) => granted.has(url) || granted.has(new URL(url).host));
}
