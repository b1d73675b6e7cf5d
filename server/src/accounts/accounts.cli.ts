// `corral account …`: the same store functions the API uses, printed for a terminal.

import { openDatabase, redactDatabaseUrl } from "../db/open.ts";
import type { Db } from "../db/db.ts";
import { createAccount, deleteAccount, listAccounts, setPassword } from "./accounts.store.ts";
import { revokeTokens } from "./tokens.store.ts";
import { announceTokensEnded } from "./token-watch.ts";

export type AccountCommand =
  | {
      command: "account new";
      database: string;
      name: string;
      password: string;
      admin: boolean;
      permissions: string[];
    }
  | { command: "account list"; database: string }
  | { command: "account delete" | "account revoke-tokens"; database: string; name: string }
  | { command: "account password"; database: string; name: string; password: string };

/** Passwords are set only by these commands (the API has no route for it), so the rule is here. */
export const MIN_PASSWORD_LENGTH = 8;

/** Runs one account command; a failure the user can fix is thrown as an Error with one line. */
export async function runAccountCommand(
  command: AccountCommand,
  print: (line: string) => void = console.log,
): Promise<void> {
  // Before the database opens: a refused command changes nothing, not even a new file.
  if ("password" in command) checkPassword(command.password);
  const db = await openStore(command.database);
  try {
    await run(db, command, print);
  } finally {
    await db.close();
  }
}

async function run(db: Db, command: AccountCommand, print: (line: string) => void) {
  switch (command.command) {
    case "account new": {
      const result = await createAccount(db, command);
      if (!result.ok && result.error === "invalid-name") {
        throw new Error(`invalid account name "${command.name}": use 1 to 16 letters, digits or _`);
      }
      if (!result.ok) throw new Error(`an account named "${command.name}" already exists`);
      print(`created account ${command.name}${command.admin ? " (admin)" : ""}`);
      return;
    }
    case "account list": {
      const accounts = await listAccounts(db);
      if (accounts.length === 0) print("no accounts");
      for (const a of accounts) {
        const notes = [
          a.admin ? "admin" : "",
          a.permissions.length ? `permissions: ${a.permissions.join(", ")}` : "",
          a.recorded ? "events recorded from the upstream cattle_grid; signs in there" : "",
        ].filter(Boolean);
        print(notes.length ? `${a.name} (${notes.join("; ")})` : a.name);
      }
      return;
    }
    case "account delete":
      if (!(await deleteAccount(db, command.name)))
        throw new Error(`no account named "${command.name}"`);
      print(`deleted account ${command.name}`);
      return;
    case "account password": {
      const accountId = await setPassword(db, command.name, command.password);
      if (accountId === null) throw new Error(`no account named "${command.name}"`);
      await announceToServers(command.database, accountId);
      print(`changed the password of ${command.name}; its tokens are revoked`);
      return;
    }
    case "account revoke-tokens": {
      const result = await revokeTokens(db, command.name);
      if (result === null) throw new Error(`no account named "${command.name}"`);
      await announceToServers(command.database, result.accountId);
      const { revoked } = result;
      print(`revoked ${revoked} token${revoked === 1 ? "" : "s"} of ${command.name}`);
      return;
    }
  }
}

// Servers on PostgreSQL hear it at once (NOTIFY); a server on a SQLite file, another process
// with no channel to this one, finds the tokens gone at its next check (within a second).
async function announceToServers(database: string, accountId: number) {
  if (!/^postgres(ql)?:\/\//.test(database)) return;
  const { createPostgresBus } = await import("../db/postgres-bus.ts");
  const bus = await createPostgresBus(database);
  try {
    await announceTokensEnded(bus, accountId);
  } finally {
    await bus.close();
  }
}

function checkPassword(password: string) {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) {
    throw new Error(
      `the password is too short: ${length} character${length === 1 ? "" : "s"}, at least ${MIN_PASSWORD_LENGTH} needed`,
    );
  }
}

/** Opens the database, turning driver errors into one readable line. */
export async function openStore(url: string): Promise<Db> {
  try {
    return (await openDatabase(url)).db;
  } catch (error) {
    throw new Error(`cannot open database ${redactDatabaseUrl(url)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
