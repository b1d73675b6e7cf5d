// The delivery-health routes of docs/api.md#delivery-health for component tests: the account's
// hosts, and stop, resume and retry per host. Tests arrange hosts in `hosts` and read what was
// asked in `actions`; `answer` overrides the next answers (an outage, a proxy's 404), `gate` holds
// them.
import type { HostAction, HostHealth } from "../lib/host-health.ts";
import type { FeAnswer, FeCall, FeRoutes } from "./fe-server.ts";

export type HostBook = {
  hosts: HostHealth[];
  /** Every action asked for, in order. */
  actions: Array<{ host: string; action: HostAction }>;
  /** When set, GET /account/hosts answers this instead of the list. */
  answer: FeAnswer | null;
  /** When set, every route here waits for it before answering (to see the page wait). */
  gate: Promise<void> | null;
};

export function createHostBook(hosts: HostHealth[] = []): HostBook {
  return { hosts, actions: [], answer: null, gate: null };
}

export function sampleHost(host: string, overrides: Partial<HostHealth> = {}): HostHealth {
  return {
    host,
    state: "ok",
    lastSuccessAt: "2026-11-25T03:00:00Z",
    lastFailureAt: null,
    failures7d: 0,
    queued: 0,
    failed: [],
    ...overrides,
  };
}

/** The routes, for callers `guard` lets in; `book` is read on each call, so tests can swap it. */
export function hostRoutes(
  bookOf: () => HostBook,
  guard: (call: FeCall) => boolean,
  unauthorized: FeAnswer,
): FeRoutes {
  const act = (action: HostAction) => async (call: FeCall) => {
    if (!guard(call)) return unauthorized;
    await bookOf().gate;
    const book = bookOf();
    const found = book.hosts.find((host) => host.host === call.params.host);
    if (!found) return { status: 404, body: { detail: `No deliveries to ${call.params.host}` } };
    book.actions.push({ host: found.host, action });
    book.hosts = book.hosts.map((host) => (host === found ? applyAction(host, action) : host));
    return { status: 202, body: null };
  };
  return {
    "GET /account/hosts": async (call) => {
      if (!guard(call)) return unauthorized;
      await bookOf().gate;
      const book = bookOf();
      return book.answer ?? { status: 200, body: book.hosts };
    },
    "POST /account/hosts/:host/stop": act("stop"),
    "POST /account/hosts/:host/resume": act("resume"),
    "POST /account/hosts/:host/retry": act("retry"),
  };
}

// As docs/server-guide.md#delivery says: stopped while held; on resume failing while failures remain,
// else ok; a retry puts the failed deliveries back in the queue.
function applyAction(host: HostHealth, action: HostAction): HostHealth {
  switch (action) {
    case "stop":
      return { ...host, state: "stopped" };
    case "resume":
      return { ...host, state: host.failed.length > 0 ? "failing" : "ok" };
    case "retry":
      return { ...host, queued: host.queued + host.failed.length, failed: [] };
  }
}
