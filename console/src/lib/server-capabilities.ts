// What the server behind /fe offers beyond cattle_grid's account API, learnt once per sign-in.
// Corral's own server has the optional routes (activity, hosts, …) and event ids on its streams;
// a real cattle_grid (proxy mode) has none of those routes but keeps a short history
// (`GET /fe/account/history`). The info answer names the server (`backend`); for a server we do
// not know, an optional route is asked once and its absence (404) remembered until the next
// sign-in. So a page never asks for a route the server is known to lack: a 404 fetch is logged in
// the browser's console, and one on every visit would be noise that hides real failures.
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

type Learnt = {
  token: string;
  backend: Promise<Backend | null>;
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
    const state: Learnt = { token, backend: Promise.resolve(null), askAgain: false, absent };
    state.backend = askBackend(state);
    learnt = state;
  }
  return learnt;
}

async function askBackend(state: Learnt): Promise<Backend | null> {
  const result = await callFe<{ backend?: unknown }>("/account/info").catch(() => null);
  if (!result?.ok) {
    state.askAgain = result === null || result.unreachable === true;
    return null;
  }
  return readBackend(result.data?.backend);
}

export function readBackend(value: unknown): Backend | null {
  if (typeof value !== "object" || value === null) return null;
  const { name, version } = value as { name?: unknown; version?: unknown };
  if (typeof name !== "string") return null;
  return { name, version: typeof version === "string" ? version : null };
}

/** The server's name and version from its info, once per sign-in; null when it does not say. */
export function whenBackendKnown(): Promise<Backend | null> {
  return current()?.backend ?? Promise.resolve(null);
}

/**
 * Whether to ask for an optional route: "yes" (the server has it), "no" (it lacks it: known, or
 * a 404 remembered this sign-in), or "ask" (unknown: ask once, then `rememberAbsent` on a 404).
 */
export async function routeOffered(route: OptionalRoute): Promise<Answer> {
  const state = current();
  if (state === null) return "ask";
  if (state.absent.has(route)) return "no";
  return knownAnswer(await state.backend, route);
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
