// Shared set-up of the Deliveries page tests: a real /fe on 127.0.0.1 with the spec's routes and
// the delivery-health routes, two hosts (one failing with a failed delivery, one ok).
import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setHostPollMs } from "../features/deliveries/use-host-health.ts";
import { setFeBaseUrl } from "../lib/fe-client.ts";
import type { HostFailedDelivery, HostHealth } from "../lib/host-health.ts";
import { resetUserStore } from "../lib/user-store.ts";
import type { Backlog } from "../lib/wire-types.ts";
import { startFeServer, type FeCall, type FeServer } from "./fe-server.ts";
import { renderConsole } from "./render-console.tsx";
import { signIn } from "./signed-in.ts";
import { account, sampleInfo, specRoutes } from "./spec-fe.ts";
import { createHostBook, hostRoutes, sampleHost } from "./spec-hosts.ts";
import { createTriggerBook } from "./spec-triggers.ts";

export const deadInbox = "https://mastodon.example/users/zoe/inbox";

export const failedDelivery: HostFailedDelivery = {
  inbox: deadInbox,
  status: 503,
  attempts: 5,
  lastError: "HTTP 503 Service Unavailable",
  triggerId: "t-1",
};

export function failingHost(overrides: Partial<HostHealth> = {}): HostHealth {
  return sampleHost("mastodon.example", {
    state: "failing",
    lastFailureAt: "2026-11-25T02:59:00Z",
    failures7d: 6,
    failuresByDay: [0, 0, 3, 1, 0, 0, 2],
    queued: 4,
    failed: [failedDelivery],
    ...overrides,
  });
}

/** Read on each call: tests change hosts, triggers and answers between calls. */
export const deliveriesState = {
  info: sampleInfo(),
  triggers: createTriggerBook(),
  hosts: createHostBook(),
  /** What GET /account/backlog answers; null: 404, as a server without the route. */
  backlog: null as Backlog | null,
};

/** Starts the server for the file and resets the state before each test; returns the server. */
export function serveDeliveriesFe(): { fe: () => FeServer } {
  let fe: FeServer;
  beforeAll(async () => {
    const signedIn = (call: FeCall) => call.authorization === `Bearer ${account.token}`;
    const unauthorized = { status: 401, body: { detail: "Not authenticated" } };
    fe = await startFeServer({
      ...specRoutes(deliveriesState),
      ...hostRoutes(() => deliveriesState.hosts, signedIn, unauthorized),
      "GET /account/backlog": (call) => {
        if (!signedIn(call)) return unauthorized;
        const { backlog } = deliveriesState;
        return backlog
          ? { status: 200, body: backlog }
          : { status: 404, body: { detail: "Not Found" } };
      },
    });
    setHostPollMs(50);
  });
  afterAll(() => fe.close());
  afterEach(() => vi.restoreAllMocks());
  beforeEach(() => {
    resetUserStore();
    deliveriesState.triggers = createTriggerBook();
    deliveriesState.backlog = null;
    deliveriesState.hosts = createHostBook([failingHost(), sampleHost("pixelfed.example")]);
    setFeBaseUrl(fe.url);
    fe.calls.length = 0;
  });
  return { fe: () => fe };
}

/** Signed in on /deliveries, once the hosts table shows. */
export async function openDeliveries() {
  signIn();
  const view = renderConsole("/deliveries");
  const table = await screen.findByRole("table", { name: "Remote hosts" });
  return { view, table, user: userEvent.setup() };
}

/** The row of a table that mentions `text` (a host, an inbox). */
export function row(table: HTMLElement, text: string): HTMLElement {
  return within(table).getByRole("row", { name: new RegExp(text.replaceAll(".", "\\.")) });
}

/** The row's cells: host, state, last success, last failure, failures, queued, actions. */
export function cells(table: HTMLElement, text: string): HTMLElement[] {
  return within(row(table, text)).getAllByRole("cell");
}
