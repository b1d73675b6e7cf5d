// `corral account …`: the same store functions the API uses, printed for a terminal.

import { openDatabase, redactDatabaseUrl } from "../db/open.ts";
import type { Db } from "../db/db.ts";
import { createAccount, deleteAccount, listAccounts, setPassword } from "./accounts.store.ts";
import { revokeTokens } from "./tokens.store.ts";

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

/** Runs one account command; a failure the user can fix is thrown as an Error with one line. */
export async function runAccountCommand(
  command: AccountCommand,
  print: (line: string) => void = console.log,
): Promise<void> {
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
      if (command.password.length === 0) throw new Error("the password must not be empty");
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
    case "account password":
      if (command.password.length === 0) throw new Error("the password must not be empty");
      if (!(await setPassword(db, command.name, command.password)))
        throw new Error(`no account named "${command.name}"`);
      print(`changed the password of ${command.name}; its tokens are revoked`);
      return;
    case "account revoke-tokens": {
      const revoked = await revokeTokens(db, command.name);
      if (revoked === null) throw new Error(`no account named "${command.name}"`);
      print(`revoked ${revoked} token${revoked === 1 ? "" : "s"} of ${command.name}`);
      return;
    }
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
