// The value types of the configuration schema, each with the message a person reads.

import { z } from "zod";

const portMessage = "must be a whole number from 0 to 65535";

export const port = z.coerce
  .number({ error: portMessage })
  .int(portMessage)
  .min(0, portMessage)
  .max(65535, portMessage);

/**
 * What a process does: everything, only HTTP, or only background work
 * (docs/operations.md#several-processes-on-one-postgresql).
 */
export const roles = ["all", "web", "worker"] as const;
export type Role = (typeof roles)[number];
export const role = z.enum(roles, { error: "must be all, web or worker" });

const leaseMessage = "must be a whole number of seconds from 1 to 3600";
export const claimLease = z.coerce
  .number({ error: leaseMessage })
  .int(leaseMessage)
  .min(1, leaseMessage)
  .max(3600, leaseMessage);

const poolMessage = "must be a whole number from 1 to 1000";
export const poolSize = z.coerce
  .number({ error: poolMessage })
  .int(poolMessage)
  .min(1, poolMessage)
  .max(1000, poolMessage);

export const databaseUrl = z
  .string()
  .regex(/^(sqlite:|postgres(ql)?:\/\/)/, "must be sqlite:PATH or postgres://…");

function parseUrl(value: string, ctx: z.RefinementCtx): URL | undefined {
  try {
    return new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: `"${value}" is not a URL` });
    return undefined;
  }
}

/** An http(s) origin (scheme://host[:port]) without a path. */
export const origin = z.string().transform((value, ctx) => {
  const url = parseUrl(value, ctx);
  if (!url) return z.NEVER;
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== "/" && url.pathname !== "")) {
    ctx.addIssue({
      code: "custom",
      message: `"${value}" must be an http(s) origin without a path`,
    });
    return z.NEVER;
  }
  return url.origin;
});

/** An http(s) URL, without trailing slashes. */
export const httpUrl = z.string().transform((value, ctx) => {
  const url = parseUrl(value, ctx);
  if (!url) return z.NEVER;
  if (!/^https?:$/.test(url.protocol)) {
    ctx.addIssue({ code: "custom", message: `"${value}" must be an http(s) URL` });
    return z.NEVER;
  }
  return url.href.replace(/\/+$/, "");
});

export const logFormat = z.enum(["text", "json"], { error: "must be text or json" });

const logLevels = ["trace", "debug", "info", "warning", "error", "fatal"] as const;
export type LogLevelName = (typeof logLevels)[number];
export const logLevel = z.enum(logLevels, {
  error: `must be one of ${logLevels.join(", ")}`,
});

/** An AMQP broker's URL (amqp: or amqps:), kept as given: its password is needed to connect. */
export const amqpUrl = z.string().transform((value, ctx) => {
  const url = parseUrl(value, ctx);
  if (!url) return z.NEVER;
  if (!/^amqps?:$/.test(url.protocol)) {
    ctx.addIssue({ code: "custom", message: "must be an amqp:// or amqps:// URL" });
    return z.NEVER;
  }
  return value;
});
