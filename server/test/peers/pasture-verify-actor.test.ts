import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVerifyActor, type VerifyActor } from "../../../test-peers/pasture.ts";
import { freshDatabaseUrl } from "../fresh.ts";
import { corral, startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";
import { openSse, type SseConnection } from "../sse.ts";

// bovine's fediverse-pasture 0.2.25 `verify_actor` (PyPI) against an actor of a Corral process:
// six personas fetch the actor and POST to its inbox. alice and dean do not sign (refused); bob
// and emily sign and serve their key to anyone; claire and frank sign and serve their key only to
// signed GETs (so Corral must sign its key fetch); then a WebFinger round trip (acct → actor →
// acct). Each verdict is checked on Corral's own incoming stream too, not only in the tool's
// report (which counts a 400 to a signed POST as a success).

let corralServer: CorralProcess | undefined;
let pasture: VerifyActor | undefined;
let incoming: SseConnection | undefined;

beforeAll(async () => {
  const database = freshDatabaseUrl();
  corral(database, "account", "new", "pasture", "pasture-password", "--admin");
  // The virtualenv is built on first use (≈ 25 s); then both start in ≈ 2 s.
  [corralServer, pasture] = await Promise.all([startCorral({ database }), startVerifyActor()]);
}, 300_000);
afterAll(async () => {
  incoming?.close();
  await Promise.all([corralServer?.kill(), pasture?.stop()]);
});

async function feJson(path: string, init: { token?: string; body?: unknown } = {}) {
  const response = await fetch(`${corralServer!.url}/fe${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      "Content-Type": "application/json",
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads what it asserts
  return { status: response.status, json: (await response.json()) as any };
}

describe("fediverse-pasture verify_actor against a Corral actor", () => {
  it("refuses alice and dean, accepts bob, claire, emily and frank, and round-trips WebFinger", async () => {
    const signIn = await feJson("/signin", {
      body: { name: "pasture", password: "pasture-password" },
    });
    expect(signIn.status).toBe(200);
    const token = signIn.json.token as string;
    const created = await feJson("/account/create", {
      token,
      body: { baseUrl: corralServer!.url, handle: "verified" },
    });
    expect(created.status).toBe(201);
    const actorId = created.json.id as string;
    incoming = await openSse(`${corralServer!.url}/fe/account/stream/incoming`, {
      Authorization: `Bearer ${token}`,
      "Last-Event-ID": "0",
    });

    const { result, messages } = await pasture!.verify(actorId);

    const refused = { get_actor: true, post_inbox: false };
    const accepted = { get_actor: true, post_inbox: true };
    expect(result, messages).toEqual({
      alice: refused,
      dean: refused,
      bob: accepted,
      claire: accepted,
      emily: accepted,
      frank: accepted,
      webfinger: true,
    });

    // Each signed persona's Like reached the actor's incoming stream, and nothing else did.
    const persona = (name: string) => `${pasture!.url}/${name}`;
    const signers = ["bob", "claire", "emily", "frank"];
    await incoming.waitForData(signers.length);
    const events = incoming.frames
      .filter((frame) => frame.data !== undefined)
      .map((frame) => JSON.parse(frame.data!));
    const arrived = events.map((event) => ({
      type: event.data.parsed.activity.type,
      actor: event.data.raw.actor,
      to: event.actor,
    }));
    expect(arrived.sort((a, b) => a.actor.localeCompare(b.actor))).toEqual(
      signers.map((name) => ({ type: "Like", actor: persona(name), to: actorId })),
    );
    expect(JSON.stringify(events)).not.toContain("EchoRequest"); // alice's and dean's unsigned POST
  });
});
