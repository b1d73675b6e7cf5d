import { afterEach, describe, expect, it } from "vitest";
import {
  addAccount,
  addActor,
  fe,
  signIn,
  startTestServer,
  type TestServer,
} from "../../test/server.ts";

// `parsed` on the wire as muck_out 0.3.16 gives it (fixtures in activitypub/muck-out.test.ts):
// here end to end, a Create from one account's actor to another's on the same server.

let server: TestServer | undefined;
afterEach(() => server?.close());

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describe("parsed and actor_info on stream events", () => {
  it("has the activity and its embedded_object with contentPlain, tag, attachment and url, in and out", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    await addAccount(server, "bob");
    const alice = await signIn(server, "alice");
    const bob = await signIn(server, "bob");
    const from = await addActor(server, alice, "alice");
    const to = await addActor(server, bob, "bob");
    const note = {
      id: `${from.id}/notes/1`,
      type: "Note",
      attributedTo: from.id,
      to: [to.id],
      content: "<p>Hello <b>Bob</b> &amp; all<script>x()</script></p>",
      tag: { type: "Mention", href: to.id, name: "@bob" },
      url: `${from.id}/notes/1.html`,
    };
    const sent = await fe(server, alice, "/actor/trigger/send_message", {
      body: {
        actor: from.id,
        data: {
          id: `${from.id}/create/1`,
          type: "Create",
          actor: from.id,
          to: [to.id],
          object: note,
        },
      },
    });
    expect(sent.status).toBe(202);
    const embedded = {
      id: note.id,
      type: "Note",
      attributedTo: from.id,
      to: [to.id],
      cc: [],
      content: "<p>Hello <b>Bob</b> &amp; all</p>",
      contentPlain: "Hello Bob &amp; all",
      tag: [{ type: "Mention", href: to.id, name: "@bob" }],
      attachment: [],
      url: [{ type: "Link", href: note.url }],
    };
    const activity = {
      id: `${from.id}/create/1`,
      type: "Create",
      actor: from.id,
      to: [to.id],
      cc: [],
      object: note.id,
    };
    for (const [token, stream] of [
      [alice, "outgoing"],
      [bob, "incoming"],
    ] as const) {
      const events = async () =>
        (await (await fe(server!, token, `/account/events/${stream}`)).json()).events;
      await poll(async () => (await events()).length).toBe(1);
      expect((await events())[0].event.data.parsed).toEqual({
        activity,
        embedded_object: embedded,
      });
      // actor_info (docs/server-guide.md#streams): our own actor, from the database.
      expect((await events())[0].event.actor_info).toEqual({
        id: from.id,
        handle: `@alice@${new URL(server!.url).host}`,
        name: null,
      });
    }
  });

  it("is {} for an activity without ids, as cattle_grid sends it", async () => {
    server = await startTestServer();
    await addAccount(server, "alice");
    const alice = await signIn(server, "alice");
    const from = await addActor(server, alice, "alice");
    await fe(server, alice, "/actor/trigger/send_message", {
      body: {
        actor: from.id,
        data: { type: "Like", actor: from.id, object: "http://x.example/1" },
      },
    });
    await poll(async () => {
      const { events } = await (await fe(server!, alice, "/account/events/outgoing")).json();
      return events[0]?.event.data.parsed;
    }).toEqual({});
  });
});
