// The command line's grammar: which command, its arguments and flags. Values are validated by
// the configuration schema (config.ts); every mistake is a ConfigError naming the help to read.

import { parseArgs } from "node:util";
import { ConfigError, loadConfig, settings, type Config, type FlagValues } from "../config.ts";
import type { AccountCommand } from "./domain.ts";
import { commands, isCommandName, lookupDefaultTimeoutS, type CommandSpec } from "./commands.ts";
import { commandHelp, mainHelp, versionLine } from "./help.ts";
import type { LookupCommand } from "./lookup.ts";

export type Command =
  /** Help and the version: printed to stdout, exit code 0. */
  | { command: "print"; text: string }
  | { command: "serve"; config: Config }
  | AccountCommand
  | LookupCommand;

type Env = Record<string, string | undefined>;

/** Reads the whole command line (without `node cli.ts`). Throws ConfigError. */
export function parseCommandLine(argv: string[], env: Env, cwd = process.cwd()): Command {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h") return print(mainHelp());
  if (first === "--version" || first === "-V") return print(versionLine);
  if (first === "help") {
    if (rest[0] === undefined) return print(mainHelp());
    if (isCommandName(rest[0])) return print(commandHelp(commands[rest[0]]));
    throw new ConfigError(`unknown command "${rest[0]}"; see corral --help`);
  }
  if (!isCommandName(first)) throw new ConfigError(`unknown command "${first}"; see corral --help`);
  const spec = commands[first];
  const stop = rest.indexOf("--");
  const beforeStop = stop === -1 ? rest : rest.slice(0, stop);
  if (beforeStop.includes("--help") || beforeStop.includes("-h")) return print(commandHelp(spec));
  const { flags, own, positionals } = readFlags(spec, rest);
  const fail = (message: string) => new ConfigError(`${message}; see corral ${spec.name} --help`);
  const config = () => loadConfig(flags, env, { only: spec.settings, cwd });

  if (first === "serve") return { command: "serve", config: config() };
  if (first === "lookup") {
    if (positionals.length !== 1) throw fail("lookup needs exactly one URI");
    const timeout = own.timeout === undefined ? lookupDefaultTimeoutS : Number(own.timeout);
    if (!(timeout > 0 && timeout <= 600))
      throw fail("--timeout: must be a number of seconds above 0, at most 600");
    const { database, allowPrivateAddresses } = config();
    return {
      command: "lookup",
      uri: positionals[0]!,
      as: typeof own.as === "string" ? own.as : null,
      timeoutMs: Math.round(timeout * 1000),
      parsed: own.parsed === true,
      database,
      allowPrivateAddresses,
    };
  }
  return accountCommand(spec, positionals, own, fail, () => config().database);
}

function accountCommand(
  spec: CommandSpec,
  positionals: string[],
  own: Record<string, unknown>,
  fail: (message: string) => ConfigError,
  database: () => string,
): AccountCommand {
  const [action = "", ...args] = positionals;
  const usage = spec.actions!.map((a) => a.usage.split(" ")).find(([name]) => name === action);
  if (!usage) {
    const names = spec.actions!.map((a) => a.usage.split(" ")[0]).join(", ");
    throw fail(action ? `unknown account action "${action}"` : `account needs one of: ${names}`);
  }
  if (args.length !== usage.length - 1) throw fail(`usage: corral account ${usage.join(" ")}`);
  if (action !== "new" && (own.admin !== undefined || own.permission !== undefined)) {
    throw fail(`--admin and --permission belong to "account new"`);
  }
  const [name = "", second = ""] = args;
  const base = { database: database(), name };
  switch (action) {
    case "new":
      return {
        command: "account new",
        ...base,
        password: second,
        admin: own.admin === true,
        permissions: (own.permission as string[] | undefined) ?? [],
      };
    case "list":
      return { command: "account list", database: base.database };
    case "password":
      return { command: "account password", ...base, password: second };
    case "delete":
      return { command: "account delete", ...base };
    default:
      return { command: "account revoke-tokens", ...base };
  }
}

/** Splits flags into configuration settings and the command's own options (node:util, strict). */
function readFlags(spec: CommandSpec, args: string[]) {
  type ParseOptions = NonNullable<Parameters<typeof parseArgs>[0]>["options"] & {};
  const options: ParseOptions = {};
  const keyOf = new Map<string, { setting: boolean; key: string }>();
  const add = (
    flag: string,
    key: string,
    value: unknown,
    repeatable: unknown,
    setting: boolean,
  ) => {
    const name = flag.replace(/^--/, "");
    options[name] = { type: value ? "string" : "boolean", multiple: Boolean(repeatable) };
    keyOf.set(name, { setting, key });
  };
  for (const name of spec.settings) {
    const setting: { flag: string; value?: string; repeatable?: boolean } = settings[name];
    add(setting.flag, name, setting.value, setting.repeatable, true);
  }
  for (const [key, option] of Object.entries(spec.own)) {
    add(option.flag, key, option.value, option.repeatable, false);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options,
      strict: true,
      allowPositionals: spec.name !== "serve",
    });
  } catch (error) {
    throw new ConfigError(`${describeParseError(error)}; see corral ${spec.name} --help`);
  }
  const flags: FlagValues = {};
  const own: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    const target = keyOf.get(name)!;
    if (target.setting)
      flags[target.key as keyof FlagValues] = value as string | string[] | boolean;
    else own[target.key] = value;
  }
  return { flags, own, positionals: parsed.positionals };
}

function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // node:util's messages run long and suggest `--`; keep the first sentence.
  const first = message.split(/\. |\n/)[0]!;
  return first.charAt(0).toLowerCase() + first.slice(1);
}

function print(text: string): Command {
  return { command: "print", text };
}
