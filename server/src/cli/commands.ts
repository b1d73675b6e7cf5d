// What `corral` accepts, as data: the parser (parse.ts) and the help (help.ts) both read it, so
// an option cannot be accepted without being documented, or documented without being accepted.

import { settings, type Setting, type SettingName } from "../config.ts";

/** An option of one command only (not a configuration setting). */
export interface OwnOption {
  flag: string;
  value?: string;
  repeatable?: boolean;
  default?: string;
  meaning: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  /** Usage lines after `corral `. */
  usage: string[];
  /** Subcommands (`account new NAME PASSWORD`) with their meaning, when the command has some. */
  actions?: { usage: string; meaning: string }[];
  /** Configuration settings the command reads (flag and environment variable). */
  settings: readonly SettingName[];
  own: Record<string, OwnOption>;
  notes?: string[];
}

export type AnyOption = Setting | OwnOption;

export const lookupDefaultTimeoutS = 10;

export const commands: Record<"serve" | "account" | "lookup", CommandSpec> = {
  serve: {
    name: "serve",
    summary: "serve the console, the account API (/fe) and federation",
    usage: ["serve [options]"],
    settings: [
      "port",
      "host",
      "baseUrls",
      "database",
      "allowPrivateAddresses",
      "trustProxy",
      "role",
      "dbPool",
      "claimLease",
      "upstream",
      "amqp",
      "upstreamAmqp",
      "metrics",
      "logFormat",
      "logLevel",
    ],
    own: {},
    notes: [
      'A database without accounts gets the admin account "operator"; its password is printed once.',
    ],
  },
  account: {
    name: "account",
    summary: "create, list, delete accounts; set passwords; revoke sign-in tokens",
    usage: ["account ACTION [ARGUMENTS] [options]"],
    actions: [
      { usage: "new NAME PASSWORD", meaning: "create an account (password: 8 characters or more)" },
      { usage: "list", meaning: "list accounts, with admin and permissions" },
      { usage: "delete NAME", meaning: "delete an account; its actors become Tombstones" },
      {
        usage: "password NAME NEWPASSWORD",
        meaning: "set a password (8 characters or more) and revoke the account's tokens",
      },
      { usage: "revoke-tokens NAME", meaning: "sign the account out everywhere" },
    ],
    settings: ["database"],
    own: {
      admin: {
        flag: "--admin",
        default: "off",
        meaning: "account new: may create actors on every base URL",
      },
      permission: {
        flag: "--permission",
        value: "P",
        repeatable: true,
        default: "none",
        meaning: "account new: may create actors on base URL (or host) P",
      },
    },
    notes: ["Names are 1 to 16 letters, digits or _ (as in cattle_grid)."],
  },
  lookup: {
    name: "lookup",
    summary: "fetch an object or handle signed as a local actor and print its JSON",
    usage: ["lookup URI [options]"],
    settings: ["database", "allowPrivateAddresses"],
    own: {
      as: {
        flag: "--as",
        value: "ACTOR",
        default: "the oldest actor",
        meaning: "sign as this local actor: its id or handle (alice@host, alice)",
      },
      timeout: {
        flag: "--timeout",
        value: "S",
        default: String(lookupDefaultTimeoutS),
        meaning: "give up after S seconds (WebFinger and fetch together)",
      },
      parsed: {
        flag: "--parsed",
        default: "off",
        meaning: "print the parsed form (muck_out's), not the raw document",
      },
    },
    notes: [
      "URI is an http(s) URL or a handle (acct:bob@host, @bob@host). The JSON goes to stdout;",
      "a failure is one line on stderr and exit code 1.",
    ],
  },
};

export type CommandName = keyof typeof commands;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(commands, name);
}

/** The command's options in help order: its own first, then the settings. */
export function optionsOf(spec: CommandSpec): AnyOption[] {
  return [...Object.values(spec.own), ...spec.settings.map((name) => settings[name])];
}
