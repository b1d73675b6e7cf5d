// Issue 16, finding 5: the same signed inbox request sent twice was accepted twice and shown
// twice. Rule (docs/server-guide.md#untrusted-input): the inbox accepts each activity id once per
// receiving actor; a replayed request (same signed bytes, or same activity id) answers 202 and adds
// nothing.

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccount, addActor, signIn, startTestServer, type TestServer } from "../server.ts";
import { startRemoteActor, type RemoteActor } from "./remote-actor.ts";
import { watchStream, type StreamWatch } from "./streams.ts";

let server: TestServer;
let remote: RemoteActor;
const local: { actor: string; incoming: StreamWatch }[] = [];

beforeAll(async () => {
  [server, remote] = await Promise.all([startTestServer(), startRemoteActor()]);
  for (const name of ["yara", "zeno"]) {
    await addAccount(server, name);
    const token = await signIn(server, name);
    const actor = (await addActor(server, token)).id;
    local.push({ actor, incoming: await watchStream(server.url, token, "incoming") });
  }
});
afterAll(async () => {
  for (const { incoming } of local) incoming.close();
  await Promise.all([server?.close(), remote?.close()]);
});

function note(to: string[]) {
  return JSON.stringify({
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${remote.actorId}/activities/${randomUUID()}`,
    type: "Create",
    actor: remote.actorId,
    to,
    object: { type: "Note", content: "once" },
  });
}

/** Sends a fresh activity to every local actor and waits until each has it: all before is done. */
async function fence() {
  const body = note(local.map((l) => l.actor));
  const response = await fetch(await remote.signedPost(`${server.url}/inbox`, body));
  expect(response.status).toBe(202);
  const id = (JSON.parse(body) as { id: string }).id;
  await Promise.all(local.map((l) => l.incoming.next((e) => e.data.raw.id === id)));
}

const shown = (watch: { incoming: StreamWatch }, id: string) =>
  watch.incoming.events().filter((e) => e.data.raw.id === id).length;

describe("the inbox accepts each activity id once per receiving actor", () => {
  it("answers 202 to the same signed request sent twice and shows it once", async () => {
    const [yara] = local;
    const body = note([yara!.actor]);
    const signed = await remote.signedPost(`${yara!.actor}/inbox`, body);
    const copy = () => new Request(signed.url, { method: "POST", headers: signed.headers, body });
    expect((await fetch(copy())).status).toBe(202);
    expect((await fetch(copy())).status).toBe(202);
    await fence();
    expect(shown(yara!, JSON.parse(body).id)).toBe(1);
  });

  it("shows an activity id once per receiving actor however often and however it is signed", async () => {
    const [yara, zeno] = local;
    const body = note([yara!.actor, zeno!.actor]);
    const id = (JSON.parse(body) as { id: string }).id;
    const sends = [
      remote.signedPost(`${server.url}/inbox`, body),
      remote.signedPost(`${server.url}/inbox`, body, "rfc9421"),
      remote.signedPost(`${yara!.actor}/inbox`, body),
      remote.signedPost(`${zeno!.actor}/inbox`, body, "rfc9421"),
    ];
    for (const request of sends) expect((await fetch(await request)).status).toBe(202);
    await fence();
    expect([shown(yara!, id), shown(zeno!, id)]).toEqual([1, 1]);
  });

  it("shows an activity once when copies of one request arrive at the same moment", async () => {
    const [yara] = local;
    const body = note([yara!.actor]);
    const signed = await remote.signedPost(`${yara!.actor}/inbox`, body);
    const copy = () => new Request(signed.url, { method: "POST", headers: signed.headers, body });
    const statuses = await Promise.all(
      Array.from({ length: 5 }, async () => (await fetch(copy())).status),
    );
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    await fence();
    expect(shown(yara!, JSON.parse(body).id)).toBe(1);
  });

  it("does not let another sender claim an activity id first and so drop the real one", async () => {
    const [yara] = local;
    const impostor = await startRemoteActor();
    try {
      const body = note([yara!.actor]);
      const { id } = JSON.parse(body) as { id: string };
      const claimed = JSON.stringify({ ...JSON.parse(body), actor: impostor.actorId });
      const first = await impostor.signedPost(`${yara!.actor}/inbox`, claimed);
      expect((await fetch(first)).status).toBe(202);
      expect((await fetch(await remote.signedPost(`${yara!.actor}/inbox`, body))).status).toBe(202);
      await fence();
      const senders = yara!.incoming
        .events()
        .filter((e) => e.data.raw.id === id)
        .map((e) => e.data.raw.actor);
      expect(senders).toEqual([impostor.actorId, remote.actorId]);
    } finally {
      await impostor.close();
    }
  });
});
