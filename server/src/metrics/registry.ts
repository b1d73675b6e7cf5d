// The Prometheus registry of one running server (tests run several in one process, so it is
// not global) and its series. Labels are bounded: role, outcome, reason, stream, method; never
// an actor, a host or a URL. Gauges that describe the database are read when scraped.

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { readQueueStats, type QueueStats } from "../db/queue-stats.ts";
import type { Services } from "../services.ts";

export type Metrics = ReturnType<typeof createMetrics>;

const fast = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
const slow = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Until processes have roles (`--role`), every process does everything: "all". */
export function roleOf(config: object): string {
  const role = (config as { role?: unknown }).role;
  return typeof role === "string" && role !== "" ? role : "all";
}

export function createMetrics(services: Pick<Services, "config" | "db" | "events">) {
  const registry = new Registry();
  registry.setDefaultLabels({ role: roleOf(services.config) });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // Both queue gauges are collected in the same scrape: they share one query.
  let reading: Promise<QueueStats> | null = null;
  const queueStats = () =>
    (reading ??= readQueueStats(services.db).finally(() => setTimeout(() => (reading = null))));
  const queueDepth = new Gauge({
    name: "corral_delivery_queue_depth",
    help: "Deliveries waiting in the queue (due or retrying)",
    registers,
    async collect() {
      this.set((await queueStats()).depth);
    },
  });
  const queueOldestAge = new Gauge({
    name: "corral_delivery_queue_oldest_age_seconds",
    help: "Age of the oldest queued delivery; 0 when the queue is empty",
    registers,
    async collect() {
      const { oldestCreatedAt } = await queueStats();
      this.set(oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - oldestCreatedAt) / 1000));
    },
  });
  const metrics = {
    registry,
    inbox: new Counter({
      name: "corral_inbox_activities_total",
      help: "Activities POSTed to an inbox: accepted, or refused with the reason",
      labelNames: ["outcome", "reason"] as const,
      registers,
    }),
    deliveries: new Counter({
      name: "corral_deliveries_total",
      help: "Delivery attempts by outcome: delivered, retry (failed, tried again later), failed (given up)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    queueDepth,
    queueOldestAge,
    subscribers: new Gauge({
      name: "corral_stream_subscribers",
      help: "Event stream subscribers (open SSE connections) in this process",
      registers,
      // Streams follow the event log through its watches (one shared read per stream).
      collect() {
        this.set(services.events.watchers());
      },
    }),
    eventAppend: new Histogram({
      name: "corral_event_append_seconds",
      help: "Time to store and announce one stream event",
      labelNames: ["stream"] as const,
      buckets: fast,
      registers,
    }),
    trigger: new Histogram({
      name: "corral_trigger_seconds",
      help: "Time from an accepted trigger to the end of its method's run (deliveries are queued, not awaited)",
      labelNames: ["method"] as const,
      buckets: slow,
      registers,
    }),
    signInFailures: new Counter({
      name: "corral_signin_failures_total",
      help: "Refused sign-ins: wrong_credentials, or throttled (429)",
      labelNames: ["reason"] as const,
      registers,
    }),
  };
  // Series a dashboard expects exist from the start, at zero.
  metrics.inbox.inc({ outcome: "accepted" }, 0);
  for (const outcome of ["delivered", "retry", "failed"]) metrics.deliveries.inc({ outcome }, 0);
  for (const reason of ["wrong_credentials", "throttled"])
    metrics.signInFailures.inc({ reason }, 0);
  return metrics;
}
