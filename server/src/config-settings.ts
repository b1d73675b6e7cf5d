// The settings a flag or an environment variable can give: names, variables, defaults and
// meanings, read by the configuration schema (config.ts) and by the command line's help.

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
    meaning: `sqlite:PATH or postgres://…; only ${DEFAULT_DATA_DIR} is created if missing`,
  },
  allowPrivateAddresses: {
    flag: "--allow-private-addresses",
    env: "CORRAL_ALLOW_PRIVATE_ADDRESSES",
    envNote: "=1",
    default: "off",
    meaning: "let lookups and deliveries reach loopback and private networks",
  },
  trustProxy: {
    flag: "--trust-proxy",
    env: "CORRAL_TRUST_PROXY",
    envNote: "=1",
    default: "off",
    meaning: "behind a reverse proxy: the client is X-Forwarded-For's last address",
  },
  role: {
    flag: "--role",
    value: "ROLE",
    env: "CORRAL_ROLE",
    default: "all",
    meaning: "all; web (HTTP, no background work) or worker (background work, /healthz only)",
  },
  dbPool: {
    flag: "--db-pool",
    value: "N",
    env: "CORRAL_DB_POOL",
    default: "10",
    meaning: "PostgreSQL connections this process opens for its queries (1 to 1000)",
  },
  claimLease: {
    flag: "--claim-lease",
    value: "S",
    env: "CORRAL_CLAIM_LEASE",
    default: "30",
    meaning:
      "seconds until another process takes over the deliveries and triggers a dead one claimed",
  },
  upstream: {
    flag: "--upstream",
    value: "URL",
    env: "CORRAL_UPSTREAM",
    default: "none",
    meaning: "proxy mode: serve the console and forward /fe/* to a cattle_grid at URL",
  },
  amqp: {
    flag: "--amqp",
    value: "URL",
    env: "CORRAL_AMQP",
    default: "none",
    meaning:
      "Cattle Drive over AMQP: amqp://USER:PASS@HOST:PORT/VHOST of a RabbitMQ to serve through",
  },
  upstreamAmqp: {
    flag: "--upstream-amqp",
    value: "URL",
    env: "CORRAL_UPSTREAM_AMQP",
    default: "none",
    meaning:
      "proxy mode: record every account's events from that cattle_grid's RabbitMQ (amqp://USER:PASS@HOST:PORT/VHOST) into --database",
  },
  metrics: {
    flag: "--metrics",
    env: "CORRAL_METRICS",
    envNote: "=1",
    default: "off",
    meaning: "serve Prometheus metrics at GET /metrics (otherwise it is 404)",
  },
  logFormat: {
    flag: "--log-format",
    value: "F",
    env: "CORRAL_LOG_FORMAT",
    default: "text",
    meaning: "text or json (one JSON object per line); logs go to stderr",
  },
  logLevel: {
    flag: "--log-level",
    value: "L",
    env: "CORRAL_LOG_LEVEL",
    default: "info",
    meaning: "trace, debug, info, warning, error or fatal",
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof settings;

/** What the command line gave: strings, repeated strings or switches, by setting name. */
export type FlagValues = Partial<Record<SettingName, string | string[] | boolean>>;
