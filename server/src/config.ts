// The configuration schema: every setting, its environment variable, default and meaning, and
// one validation that lists every problem in one line. The command line (cli/) only collects
// flag values; this module reads the environment and decides what they mean.

import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { databaseUrl, httpUrl, origin, port } from "./config-values.ts";

export interface Config {
  port: number;
  host: string;
  /** Origins this server hosts actors on (no trailing slash); requests are routed by Host. */
  baseUrls: string[];
  /** True when baseUrls came from the user; otherwise they follow the port actually bound. */
  baseUrlsGiven: boolean;
  database: string;
  allowPrivateAddresses: boolean;
  upstream: string | null;
  /** Interval of `: keep-alive` comments on event streams. */
  keepAliveMs: number;
  /** Events kept per account and stream. */
  streamCap: number;
  tokenTtlMs: number;
  /** Where the built console lives. */
  consoleDir: string;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export const defaultConsoleDir = fileURLToPath(new URL("../../console/dist", import.meta.url));

/** The one folder created when missing: the default database's. */
export const DEFAULT_DATA_DIR = "./data";
export const DEFAULT_DATABASE = `sqlite:${DEFAULT_DATA_DIR}/corral.sqlite`;

export interface Setting {
  flag: string;
  /** The value's placeholder in help (`N`, `URL`); absent for a switch. */
  value?: string;
  repeatable?: boolean;
  env: string;
  /** How the variable is written when it differs from the flag's value (`1`, comma-separated). */
  envNote?: string;
  default: string;
  meaning: string;
}

/** Every setting that a flag or an environment variable can give; a flag wins over its variable. */
export const settings = {
  port: {
    flag: "--port",
    value: "N",
    env: "PORT",
    default: "3000",
    meaning: "listen port (0 picks a free one)",
  },
  host: {
    flag: "--host",
    value: "H",
    env: "HOST",
    default: "localhost",
    meaning: "listen address",
  },
  baseUrls: {
    flag: "--base-url",
    value: "URL",
    repeatable: true,
    env: "CORRAL_BASE_URLS",
    envNote: "comma-separated",
    default: "http://localhost:PORT",
    meaning: "an origin actors live on; requests are routed by their Host",
  },
  database: {
    flag: "--database",
    value: "URL",
    env: "CORRAL_DATABASE",
    default: DEFAULT_DATABASE,
    meaning: `sqlite:PATH or postgres://…; a missing folder is an error, except ${DEFAULT_DATA_DIR}`,
  },
  allowPrivateAddresses: {
    flag: "--allow-private-addresses",
    env: "CORRAL_ALLOW_PRIVATE_ADDRESSES",
    envNote: "=1",
    default: "off",
    meaning: "let lookups and deliveries reach loopback and private networks (tests, demos)",
  },
  upstream: {
    flag: "--upstream",
    value: "URL",
    env: "CORRAL_UPSTREAM",
    default: "none",
    meaning: "proxy mode: serve the console and forward /fe/* to a cattle_grid at URL",
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof settings;

/** What the command line gave: strings, repeated strings or switches, by setting name. */
export type FlagValues = Partial<Record<SettingName, string | string[] | boolean>>;

const schema = z.object({
  port,
  host: z.string().min(1, "must not be empty"),
  baseUrls: z.array(origin).optional(),
  database: databaseUrl,
  allowPrivateAddresses: z.boolean(),
  upstream: httpUrl.nullable(),
  keepAliveMs: z.number().int().positive(),
  streamCap: z.number().int().positive(),
  tokenTtlMs: z.number().int().positive(),
  consoleDir: z.string().min(1),
});

const defaults = {
  port: 3000,
  host: "localhost",
  database: DEFAULT_DATABASE,
  allowPrivateAddresses: false,
  upstream: null,
  keepAliveMs: 15_000,
  streamCap: 10_000,
  tokenTtlMs: 30 * 24 * 3600_000,
  consoleDir: defaultConsoleDir,
};

/** Reads one setting's environment variable into the shape its flag would give; empty is unset. */
function fromEnv(name: SettingName, env: Record<string, string | undefined>) {
  const raw = env[settings[name].env] || undefined;
  if (name === "allowPrivateAddresses") return /^(1|true|yes)$/i.test(raw ?? "");
  if (name === "baseUrls") {
    const list = raw
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    return list?.length ? list : undefined;
  }
  return raw;
}

/**
 * The configuration from flags (which win), the environment and the defaults. Also checks
 * what only a person typing can get wrong: a sqlite: file in a folder that does not exist.
 */
export function loadConfig(
  flags: FlagValues,
  env: Record<string, string | undefined>,
  options: { only?: readonly SettingName[]; cwd?: string } = {},
): Config {
  const { only = Object.keys(settings) as SettingName[], cwd = process.cwd() } = options;
  const input: Record<string, unknown> = {};
  // Settings a command does not use keep their defaults: a stray PORT must not break `account`.
  for (const name of only) {
    input[name] = flags[name] ?? fromEnv(name, env);
  }
  const database = (input.database as string | undefined) ?? DEFAULT_DATABASE;
  const folder = missingDatabaseFolder(database, cwd);
  return parseConfig(
    input as Parameters<typeof parseConfig>[0],
    folder ? [`--database: ${folder}`] : [],
  );
}

/** Completes a partial configuration (from tests or loadConfig) with defaults and validates it. */
export function parseConfig(
  input: Partial<Omit<Config, "port">> & { port?: number | string },
  extraProblems: string[] = [],
): Config {
  const result = schema.safeParse({
    ...defaults,
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
  });
  const problems = [...(result.error?.issues ?? []).map(describeIssue), ...extraProblems];
  if (!result.success || problems.length > 0) {
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  const { baseUrls, ...rest } = result.data;
  return {
    ...rest,
    baseUrlsGiven: baseUrls !== undefined && baseUrls.length > 0,
    baseUrls: baseUrls?.length ? [...new Set(baseUrls)] : [`http://localhost:${rest.port}`],
  };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const key = String(issue.path[0] ?? "");
  const flag = key in settings ? settings[key as SettingName].flag : `--${key}`;
  return `${flag}: ${issue.message}`;
}

/**
 * Why a `sqlite:` URL cannot be used as given: its folder is missing and is not the default
 * one (a typo there would otherwise quietly start an empty database somewhere else).
 */
export function missingDatabaseFolder(url: string, cwd: string): string | null {
  if (!url.startsWith("sqlite:")) return null;
  const path = url.slice("sqlite:".length);
  if (path === "" || path === ":memory:") return null;
  const folder = resolve(cwd, dirname(path));
  if (existsSync(folder) || folder === resolve(cwd, DEFAULT_DATA_DIR)) return null;
  return `the folder ${folder} does not exist (only the default ${DEFAULT_DATA_DIR} is created); create it first`;
}
