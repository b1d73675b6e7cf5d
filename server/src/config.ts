// The only module that reads flags and the environment. Everything is parsed with one schema so
// that a bad start prints one readable line listing every problem, never a stack trace.

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";

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

const origin = z.string().transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: `"${value}" is not a URL` });
    return z.NEVER;
  }
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== "/" && url.pathname !== "")) {
    ctx.addIssue({
      code: "custom",
      message: `"${value}" must be an http(s) origin without a path`,
    });
    return z.NEVER;
  }
  return url.origin;
});

const httpUrl = z.string().transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: `"${value}" is not a URL` });
    return z.NEVER;
  }
  if (!/^https?:$/.test(url.protocol)) {
    ctx.addIssue({ code: "custom", message: `"${value}" must be an http(s) URL` });
    return z.NEVER;
  }
  return url.href.replace(/\/+$/, "");
});

const schema = z.object({
  port: z.coerce
    .number({ error: "must be a whole number from 0 to 65535" })
    .int("must be a whole number from 0 to 65535")
    .min(0, "must be a whole number from 0 to 65535")
    .max(65535, "must be a whole number from 0 to 65535"),
  host: z.string().min(1, "must not be empty"),
  baseUrls: z.array(origin).optional(),
  database: z
    .string()
    .regex(/^(sqlite:|postgres(ql)?:\/\/)/, "must be sqlite:PATH or postgres://…"),
  allowPrivateAddresses: z.boolean(),
  upstream: httpUrl.nullable(),
  keepAliveMs: z.number().int().positive(),
  streamCap: z.number().int().positive(),
  tokenTtlMs: z.number().int().positive(),
  consoleDir: z.string().min(1),
});

const flagOptions = {
  port: { type: "string" },
  host: { type: "string" },
  "base-url": { type: "string", multiple: true },
  database: { type: "string" },
  "allow-private-addresses": { type: "boolean" },
  upstream: { type: "string" },
} as const;

const flagNames: Record<string, string> = {
  baseUrls: "--base-url",
  allowPrivateAddresses: "--allow-private-addresses",
};

/** Builds the serve configuration from flags (which win) and environment variables. */
export function loadConfig(argv: string[], env: Record<string, string | undefined>): Config {
  let values: ReturnType<typeof parseFlags>["values"];
  try {
    ({ values } = parseFlags(argv));
  } catch (error) {
    throw new ConfigError(describeParseError(error));
  }
  const envBaseUrls = env.CORRAL_BASE_URLS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return parseConfig({
    port: values.port ?? env.PORT ?? 3000,
    host: values.host ?? env.HOST ?? "localhost",
    baseUrls: values["base-url"] ?? envBaseUrls,
    database: values.database ?? env.CORRAL_DATABASE ?? "sqlite:./data/corral.sqlite",
    allowPrivateAddresses:
      values["allow-private-addresses"] === true ||
      /^(1|true|yes)$/i.test(env.CORRAL_ALLOW_PRIVATE_ADDRESSES ?? ""),
    upstream: values.upstream ?? (env.CORRAL_UPSTREAM || null),
  });
}

/** Completes a partial configuration (from tests or loadConfig) with defaults and validates it. */
export function parseConfig(
  input: Partial<Omit<Config, "port">> & { port?: number | string },
): Config {
  const result = schema.safeParse({
    port: 3000,
    host: "localhost",
    database: "sqlite:./data/corral.sqlite",
    allowPrivateAddresses: false,
    upstream: null,
    keepAliveMs: 15_000,
    streamCap: 10_000,
    tokenTtlMs: 30 * 24 * 3600_000,
    consoleDir: defaultConsoleDir,
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
  });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? "");
      const flag = flagNames[key] ?? `--${key}`;
      return `${flag}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  const { baseUrls, ...rest } = result.data;
  const port = rest.port;
  return {
    ...rest,
    baseUrlsGiven: baseUrls !== undefined && baseUrls.length > 0,
    baseUrls: baseUrls?.length ? [...new Set(baseUrls)] : [`http://localhost:${port}`],
  };
}

function parseFlags(argv: string[]) {
  return parseArgs({ args: argv, options: flagOptions, strict: true, allowPositionals: false });
}

function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // node:util's messages run long and suggest `--`; keep the first sentence.
  return message.split(/\. |\n/)[0]!.replace(/^Unknown option/, "unknown option");
}

export type Command =
  | { command: "serve"; config: Config }
  | { command: "help" }
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

export const usage = `usage: corral serve [--port N] [--host H] [--base-url URL]... [--database URL] [--allow-private-addresses] [--upstream URL]
       corral account new NAME PASSWORD [--admin] [--permission P]... [--database URL]
       corral account list | delete NAME | password NAME NEWPASSWORD | revoke-tokens NAME [--database URL]`;

const accountArity: Record<string, string[]> = {
  new: ["NAME", "PASSWORD"],
  list: [],
  delete: ["NAME"],
  password: ["NAME", "NEWPASSWORD"],
  "revoke-tokens": ["NAME"],
};

/** Reads the whole command line: which command, and its validated options. Throws ConfigError. */
export function parseCommandLine(argv: string[], env: Record<string, string | undefined>): Command {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h")
    return { command: "help" };
  if (command === "serve") return { command: "serve", config: loadConfig(rest, env) };
  if (command !== "account")
    throw new ConfigError(`unknown command "${command}"; try: corral help`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: {
        database: { type: "string" },
        admin: { type: "boolean" },
        permission: { type: "string", multiple: true },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new ConfigError(describeParseError(error));
  }
  const [action, ...args] = parsed.positionals;
  const expected = action === undefined ? undefined : accountArity[action];
  if (!expected)
    throw new ConfigError(`account needs one of: ${Object.keys(accountArity).join(", ")}`);
  if (args.length !== expected.length) {
    throw new ConfigError(
      `usage: corral account ${action}${expected.map((a) => ` ${a}`).join("")}`,
    );
  }
  if (action !== "new" && (parsed.values.admin || parsed.values.permission)) {
    throw new ConfigError(`--admin and --permission belong to "account new"`);
  }
  const database = parsed.values.database ?? env.CORRAL_DATABASE ?? "sqlite:./data/corral.sqlite";
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(database))
    throw new ConfigError(`--database: must be sqlite:PATH or postgres://…`);
  const [name = "", second = ""] = args;
  switch (action) {
    case "new":
      return {
        command: "account new",
        database,
        name,
        password: second,
        admin: parsed.values.admin ?? false,
        permissions: parsed.values.permission ?? [],
      };
    case "list":
      return { command: "account list", database };
    case "password":
      return { command: "account password", database, name, password: second };
    default:
      return {
        command: action === "delete" ? "account delete" : "account revoke-tokens",
        database,
        name,
      };
  }
}

/** The command line of this process (the one place that touches process.argv and process.env). */
export function readCommandLine(): Command {
  return parseCommandLine(process.argv.slice(2), process.env);
}
