// The account API as the test process sees it: for arranging data and causing real server events
// (a Perform, a send_message between two actors) while the browser watches.

import { pollUntil } from "../../test-kit/poll-until.ts";
import { signIn } from "../../test-kit/sign-in.ts";

export type Actor = { id: string; name: string };
export type AccountInfo = {
  actors: Actor[];
  baseUrls: string[];
  methodInformation: { routing_key: string }[];
  [key: string]: unknown;
};

export type FeApi = {
  token: string;
  info(): Promise<AccountInfo>;
  /** Creates an actor on the server's base URL and returns its ActivityPub document. */
  createActor(handle: string, name?: string): Promise<Record<string, unknown> & { id: string }>;
  trigger(method: string, body: Record<string, unknown>): Promise<void>;
};

async function callJson(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, {
    ...init,
    headers: { "Content-Type": "application/json", ...(init.headers as Record<string, string>) },
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Signs in at a Corral or a real cattle_grid. cattle_grid commits a token and a new actor after it
 * has answered (docs/cattle-grid-differences.md#writes-answered-before-they-are-committed), so
 * this waits until the token is accepted, and createActor until the account's info lists the
 * actor: the test's next call never races that commit. Against Corral both hold at once.
 */
export async function signInApi(serverUrl: string, name: string, password: string): Promise<FeApi> {
  const token = await signIn(serverUrl, name, password);
  const auth = { Authorization: `Bearer ${token}` };
  const info = () =>
    callJson(`${serverUrl}/fe/account/info`, { headers: auth }) as Promise<AccountInfo>;
  await pollUntil(`the token of ${name} at ${serverUrl}`, () => info().then(() => true));
  return {
    token,
    info,
    async createActor(handle, name) {
      const { baseUrls } = await info();
      const body = JSON.stringify({ baseUrl: baseUrls[0], handle, ...(name ? { name } : {}) });
      const actor = (await callJson(`${serverUrl}/fe/account/create`, {
        method: "POST",
        headers: auth,
        body,
      })) as Record<string, unknown> & { id: string };
      await pollUntil(`${actor.id} in the account's info`, async () =>
        (await info()).actors.some((listed) => listed.id === actor.id),
      );
      return actor;
    },
    async trigger(method, body) {
      await callJson(`${serverUrl}/fe/actor/trigger/${method}`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(body),
      });
    },
  };
}

let noteCounter = 0;

/** A Create(Note) from one actor to another, as send_message delivers it byte for byte. */
export function buildCreateNote(from: string, to: string, text = `note ${++noteCounter}`) {
  const id = `${from}/e2e/${Date.now()}-${noteCounter}`;
  return {
    "@context": "https://www.w3.org/ns/activitystreams",
    type: "Create",
    id: `${id}/activity`,
    actor: from,
    to: [to],
    object: { type: "Note", id, attributedTo: from, to: [to], content: text },
  };
}

/** An activity of the given type from one actor to another (Like, Announce, Create …). */
export function buildActivity(type: string, from: string, to: string) {
  if (type === "Create") return buildCreateNote(from, to);
  return {
    "@context": "https://www.w3.org/ns/activitystreams",
    type,
    id: `${from}/e2e/${Date.now()}-${++noteCounter}`,
    actor: from,
    to: [to],
    object: to,
  };
}
