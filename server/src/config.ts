// The configuration schema: every setting, its environment variable, default and meaning, and
// one validation that lists every problem in one line. The command line (cli/) only collects
// flag values; this module reads the environment and decides what they mean.

import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_DATABASE,
  settings,
  type FlagValues,
  type SettingName,
} from "./config-settings.ts";
import {
  amqpUrl,
  claimLease,
  databaseUrl,
  httpUrl,
  logFormat,
  logLevel,
  origin,
  poolSize,
  port,
  role,
  type LogLevelName,
  type Role,
} from "./config-values.ts";

export type { Role };

export interface Config {
  port: number;
  host: string;
  /** Origins this server hosts actors on (no trailing slash); requests are routed by Host. */
  baseUrls: string[];
  /** True when baseUrls came from the user; otherwise they follow the port actually bound. */
  baseUrlsGiven: boolean;
  database: string;
  allowPrivateAddresses: boolean;
  /** Behind a reverse proxy: the client address is read from X-Forwarded-For. */
  trustProxy: boolean;
  /** all: HTTP and background work; web: HTTP only; worker: background work and /healthz. */
  role: Role;
  /** PostgreSQL pool size of this process. */
  dbPool: number;
  /**
   * Seconds a claimed delivery or trigger stays with its process unless renewed (a third of it
   * apart while in flight): after a crash, how long until another process takes the work over.
   */
  claimLease: number;
  upstream: string | null;
  /** Cattle Drive over AMQP: the broker to serve through (docs/cattle-drive.md), or null. */
  amqp: string | null;
  /** Proxy mode: the upstream's RabbitMQ, whose account events are recorded (docs/proxy-history.md). */
  upstreamAmqp: string | null;
  /** Serve GET /metrics (Prometheus text format). */
  metrics: boolean;
  logFormat: "text" | "json";
  logLevel: LogLevelName;
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

export {
  DEFAULT_DATA_DIR,
  DEFAULT_DATABASE,
  settings,
  type FlagValues,
  type Setting,
  type SettingName,
} from "./config-settings.ts";

const schema = z.object({
  port,
  host: z.string().min(1, "must not be empty"),
  baseUrls: z.array(origin).optional(),
  database: databaseUrl,
  allowPrivateAddresses: z.boolean(),
  trustProxy: z.boolean(),
  role,
  dbPool: poolSize,
  claimLease,
  upstream: httpUrl.nullable(),
  amqp: amqpUrl.nullable(),
  upstreamAmqp: amqpUrl.nullable(),
  metrics: z.boolean(),
  logFormat,
  logLevel,
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
  trustProxy: false,
  role: "all",
  dbPool: 10,
  claimLease: 30,
  upstream: null,
  amqp: null,
  upstreamAmqp: null,
  metrics: false,
  logFormat: "text",
  logLevel: "info",
  keepAliveMs: 15_000,
  streamCap: 10_000,
  tokenTtlMs: 30 * 24 * 3600_000,
  consoleDir: defaultConsoleDir,
};

/** Reads one setting's environment variable into the shape its flag would give; empty is unset. */
function fromEnv(name: SettingName, env: Record<string, string | undefined>) {
  const raw = env[settings[name].env] || undefined;
  if (name === "allowPrivateAddresses" || name === "metrics" || name === "trustProxy")
    return /^(1|true|yes)$/i.test(raw ?? "");
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
  if (result.success && result.data.role !== "all" && result.data.database.startsWith("sqlite:")) {
    problems.push(
      `--role ${result.data.role}: a sqlite: database is served by one process (--role all); separate web and worker processes need --database postgres://…`,
    );
  }
  if (result.success && result.data.upstreamAmqp && !result.data.upstream) {
    problems.push(
      "--upstream-amqp: records a cattle_grid's events in proxy mode: give --upstream too",
    );
  }
  if (!result.success || problems.length > 0) {
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  const { baseUrls, ...rest } = result.data;
  // A configuration completed once (loadConfig, then startServer) keeps knowing that its base
  // URL was a default: with --port 0 it must follow the port actually bound.
  const given = input.baseUrlsGiven ?? (baseUrls !== undefined && baseUrls.length > 0);
  return {
    ...rest,
    baseUrlsGiven: given && baseUrls !== undefined && baseUrls.length > 0,
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
