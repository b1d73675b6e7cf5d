// GET /metrics (Prometheus text format) when --metrics is on, 404 otherwise; and the sign-in
// failures counted from /fe/signin's answers, so the sign-in route itself stays as it is.

import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { metricsOf } from "../metrics/observe.ts";

export async function serveMetrics(services: object, c: Context): Promise<Response> {
  const metrics = metricsOf(services);
  if (!metrics) return c.json({ detail: "Not Found" }, 404);
  const text = await metrics.registry.metrics();
  return c.body(text, 200, { "Content-Type": metrics.registry.contentType });
}

export function countSignInFailures(services: object) {
  return createMiddleware(async (c, next) => {
    await next();
    const failures = metricsOf(services)?.signInFailures;
    if (c.res.status === 401) failures?.inc({ reason: "wrong_credentials" });
    else if (c.res.status === 429) failures?.inc({ reason: "throttled" });
  });
}
