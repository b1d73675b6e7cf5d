// Handlers that answer like the /fe of docs/api.md, for one account. Tests start a real
// server with them (startFeServer) and override single routes where a test needs another answer.
import type { AccountInfo, ActorDocument } from "../lib/wire-types.ts";
import type { FeCall, FeRoutes } from "./fe-server.ts";
import { createTriggerBook, triggerRoutes, type TriggerBook } from "./spec-triggers.ts";

export const account = { name: "operator", password: "correct horse", token: "token-1" };

export const alice = { id: "http://127.0.0.1/actor/alice", name: "alice" };
export const bob = { id: "http://127.0.0.1/actor/bob", name: "bob" };

export function sampleInfo(overrides: Partial<AccountInfo> = {}): AccountInfo {
  return {
    accountName: account.name,
    actors: [alice, bob],
    baseUrls: ["http://127.0.0.1", "http://other.example"],
    backend: { name: "corral", version: "0.1.0" },
    protocol: { name: "CattleDrive", version: "0.1.0" },
    methodInformation: [
      { routing_key: "send_message", module: "corral", description: "Sends a message" },
      { routing_key: "update_actor", module: "corral", description: "Updates the actor" },
    ],
    ...overrides,
  };
}

const unauthorized = { status: 401, body: { detail: "Not authenticated" } };

function isSignedIn(call: FeCall): boolean {
  return call.authorization === `Bearer ${account.token}`;
}

/** What each stream sends on connecting (then it stays open, silent). */
export type StreamBacklog = Record<"incoming" | "outgoing" | "error", unknown[]>;

/**
 * Spec-like routes; `info` and `streams` are read on each call so a test can change them between
 * calls. Triggers answer as docs/api.md#get-feactortriggersid says, recorded in `triggers`.
 */
export function specRoutes(
  state: { info: AccountInfo; streams?: StreamBacklog; triggers?: TriggerBook } = {
    info: sampleInfo(),
  },
): FeRoutes {
  const stream = (type: keyof StreamBacklog) => (call: FeCall) =>
    isSignedIn(call) ? { status: 200, events: state.streams?.[type] ?? [] } : unauthorized;
  return {
    "GET /account/stream/incoming": stream("incoming"),
    "GET /account/stream/outgoing": stream("outgoing"),
    "GET /account/stream/error": stream("error"),
    "POST /signin": ({ body }) => {
      const { name, password } = body as { name?: string; password?: string };
      if (name === account.name && password === account.password) {
        return { status: 200, body: { token: account.token } };
      }
      return { status: 401, body: { detail: "Wrong name or password" } };
    },
    "POST /signout": (call) => (isSignedIn(call) ? { status: 204 } : unauthorized),
    "GET /account/info": (call) =>
      isSignedIn(call) ? { status: 200, body: state.info } : unauthorized,
    "POST /account/create": (call) => {
      if (!isSignedIn(call)) return unauthorized;
      const { baseUrl, handle } = call.body as { baseUrl: string; handle: string | null };
      const actor: ActorDocument = {
        id: `${baseUrl}/actor/new`,
        type: "Person",
        preferredUsername: handle ?? undefined,
      };
      state.info = { ...state.info, actors: [...state.info.actors, { id: actor.id, name: "new" }] };
      return { status: 201, body: actor };
    },
    "POST /actor/lookup": (call) => {
      if (!isSignedIn(call)) return unauthorized;
      const { uri } = call.body as { uri: string };
      return { status: 200, body: { raw: { id: uri, type: "Note", content: `looked up ${uri}` } } };
    },
    ...triggerRoutes(() => (state.triggers ??= createTriggerBook()), isSignedIn, unauthorized),
  };
}
