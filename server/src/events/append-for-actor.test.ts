import { afterEach, describe, expect, it } from "vitest";
import { createActor } from "../actors/index.ts";
import { addAccount, startTestServer, type TestServer } from "../../test/server.ts";
import { appendEventForActor } from "./index.ts";

let server: TestServer;
afterEach(() => server?.close());

describe("appendEventForActor", () => {
  it("appends to the stream of the account owning the actor, and does nothing for others", async () => {
    server = await startTestServer();
    const account = await addAccount(server, "alice");
    const created = await createActor(server.services.db, {
      accountId: account.id,
      baseUrl: server.url,
    });
    if (!created.ok) throw new Error(created.error);
    expect(await appendEventForActor(server.services, created.actor.id, "incoming", { a: 1 })).toBe(
      1,
    );
    expect(await appendEventForActor(server.services, created.actor.id, "incoming", { a: 2 })).toBe(
      2,
    );
    expect(
      await appendEventForActor(server.services, "https://remote.example/u", "incoming", {}),
    ).toBeNull();
    const rows = await server.services.events.readAfter(account.id, "incoming", 0);
    expect(rows.map((r) => JSON.parse(r.data))).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
