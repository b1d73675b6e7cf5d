// What the server behind /fe offers beyond cattle_grid's account API, learnt once per sign-in.
// Corral's own server has the optional routes (activity, hosts, …) and event ids on its streams;
// a real cattle_grid (proxy mode) has none of those routes but keeps a short history
// (`GET /fe/account/history`). The info answer names the server (`backend`); for a server we do
// not know, an optional route is asked once and its absence (404) remembered until the next
// sign-in. So a page never asks for a route the server is known to lack: a 404 fetch is logged in
// the browser's console, and one on every visit would be noise that hides real failures.
// Corral in proxy mode with --upstream-amqp records the upstream's events and says so in the
// info answer (`corralProxy`, docs/proxy-history.md): then the retained history and the streams
// with ids are Corral's, whatever the backend.
import { callFe } from "./fe-client.ts";
import { useUserStore } from "./user-store.ts";

/** Optional routes, by the path the console asks. */
export type OptionalRoute =
  | "/account/activity"
  | "/account/hosts"
  | "/account/history"
  | "/account/refusals"
  | "/account/backlog"
  | "/account/events"
  | "/account/cattle-drive";

export type Backend = { name: string; version: string | null };

type Answer = "yes" | "no" | "ask";

/** What a recording Corral proxy says of the history it keeps (its info's `corralProxy`). */
export type RecordedHistory = { source: string; recording: boolean; retention: number | null };

const HISTORY: OptionalRoute = "/account/history";

/**
 * What a server we know offers; a server not known here is asked once per route. Every optional
 * route but cattle_grid's history is Corral's own; a real cattle_grid 0.5.22 has only its history
 * (it speaks Cattle Drive through RabbitMQ, but reports nothing of it under /fe).
 */
function knownAnswer(backend: Backend | null, route: OptionalRoute): Answer {
  if (backend?.name === "corral") return route === HISTORY ? "ask" : "yes";
  if (backend?.name === "cattle_grid") return route === HISTORY ? "yes" : "no";
  return "ask";
}

export type KnownServer = { backend: Backend | null; recorded: RecordedHistory | null };

type Learnt = {
  token: string;
  server: Promise<KnownServer>;
  /** The info call failed (the server is away): asked again next time. */
  askAgain: boolean;
  absent: Set<OptionalRoute>;
};
let learnt: Learnt | null = null;

function current(): Learnt | null {
  const token = useUserStore.getState().token;
  if (token === null) return null;
  if (learnt?.token !== token || learnt.askAgain) {
    const absent = learnt?.token === token ? learnt.absent : new Set<OptionalRoute>();
    const state: Learnt = { token, server: Promise.resolve(NONE), askAgain: false, absent };
    state.server = askServer(state);
    learnt = state;
  }
  return learnt;
}

const NONE: KnownServer = { backend: null, recorded: null };

async function askServer(state: Learnt): Promise<KnownServer> {
  const result = await callFe<{ backend?: unknown; corralProxy?: unknown }>("/account/info").catch(
    () => null,
  );
  if (!result?.ok) {
    state.askAgain = result === null || result.unreachable === true;
    return NONE;
  }
  return {
    backend: readBackend(result.data?.backend),
    recorded: readRecordedHistory(result.data?.corralProxy),
  };
}

export function readRecordedHistory(value: unknown): RecordedHistory | null {
  if (typeof value !== "object" || value === null) return null;
  const { events, historySource, recording, retention } = value as Record<string, unknown>;
  if (events !== true || typeof historySource !== "string") return null;
  return {
    source: historySource,
    recording: recording === true,
    retention: typeof retention === "number" ? retention : null,
  };
}

export function readBackend(value: unknown): Backend | null {
  if (typeof value !== "object" || value === null) return null;
  const { name, version } = value as { name?: unknown; version?: unknown };
  if (typeof name !== "string") return null;
  return { name, version: typeof version === "string" ? version : null };
}

/** The server's name and, from a recording Corral proxy, what history it keeps; once per sign-in. */
export async function whenServerKnown(): Promise<KnownServer> {
  return current()?.server ?? NONE;
}

/**
 * Whether to ask for an optional route: "yes" (the server has it), "no" (it lacks it: known, or
 * a 404 remembered this sign-in), or "ask" (unknown: ask once, then `rememberAbsent` on a 404).
 */
export async function routeOffered(route: OptionalRoute): Promise<Answer> {
  const state = current();
  if (state === null) return "ask";
  if (state.absent.has(route)) return "no";
  const { backend, recorded } = await state.server;
  if (recorded && route === "/account/events") return "yes";
  return knownAnswer(backend, route);
}

export function rememberAbsent(route: OptionalRoute): void {
  current()?.absent.add(route);
}

/** Describes the server for sentences ("cattle_grid 0.5.22"), or "The upstream server". */
export function nameBackend(backend: Backend | null): string {
  if (!backend) return "the upstream server";
  return backend.version ? `${backend.name} ${backend.version}` : backend.name;
}

/** Forgets what was learnt (tests; a sign-in learns anew by itself). */
export function forgetCapabilities(): void {
  learnt = null;
}
