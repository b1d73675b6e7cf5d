import { afterEach, describe, expect, it } from "vitest";
import { createAccount } from "../accounts/index.ts";
import { createActor, markActorDeleted } from "../actors/index.ts";
import type { Db } from "../db/db.ts";
import { addFollowing, answerFollowing } from "../follows/following.store.ts";
import type { Services } from "../services.ts";
import { openFreshDatabase } from "../../test/fresh.ts";
import { findAddressedActors, findRecipient } from "./recipients.ts";

const base = "https://corral.example";
const remote = "https://remote.example/users/bob";

describe("which of our actors an activity at the shared inbox is for", () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  async function setUp() {
    db = (await openFreshDatabase()).db;
    const created = await createAccount(db, { name: "alice", password: "alice-password" });
    if (!created.ok) throw new Error(created.error);
    const accountId = created.account.id;
    const actor = async () => {
      const made = await createActor(db!, { accountId, baseUrl: base });
      if (!made.ok) throw new Error(made.error);
      return made.actor.id;
    };
    const [named, follower, other, deleted] = [
      await actor(),
      await actor(),
      await actor(),
      await actor(),
    ];
    await markActorDeleted(db, deleted);
    await addFollowing(db, follower, remote, null);
    await answerFollowing(db, remote, follower, "", true);
    const services = { db } as unknown as Services;
    return { services, accountId, named, follower, other, deleted };
  }

  it("names the live actors addressed, each once, with their account", async () => {
    const { services, accountId, named, other, deleted } = await setUp();
    const activity = {
      type: "Create",
      actor: remote,
      to: [named, deleted, "https://elsewhere.example/x"],
      cc: named,
      object: { type: "Note", id: `${remote}/note` },
    };
    expect(await findAddressedActors(services, activity, remote)).toEqual([
      { id: named, accountId },
    ]);
    // Looked up in one turn together, as concurrent requests are, each gets its own answer.
    const [a, b] = await Promise.all([
      findAddressedActors(services, { actor: remote, to: other }, remote),
      findAddressedActors(services, { actor: remote, type: "Follow", object: named }, remote),
    ]);
    expect(a).toEqual([{ id: other, accountId }]);
    expect(b).toEqual([{ id: named, accountId }]);
  });

  it("reaches our followers of the sender when it is public or for the sender's followers", async () => {
    const { services, accountId, follower, named } = await setUp();
    const toFollowers = { actor: remote, to: [`${remote}/followers`] };
    expect(await findAddressedActors(services, toFollowers, remote)).toEqual([
      { id: follower, accountId },
    ]);
    const isPublic = { actor: remote, to: ["as:Public"], cc: [named] };
    expect((await findAddressedActors(services, isPublic, remote)).map((r) => r.id).sort()).toEqual(
      [named, follower].sort(),
    );
    // Addressed to our actor's followers collection: that actor.
    const toOurFollowers = { actor: remote, to: [`${named}/followers`] };
    expect(
      (await findAddressedActors(services, toOurFollowers, remote)).map((r) => r.id),
    ).toContain(named);
  });

  it("leaves out our own actor's activity echoed back to it", async () => {
    const { services, named } = await setUp();
    expect(await findAddressedActors(services, { actor: named, to: [named] }, named)).toEqual([]);
  });

  it("finds one of our actors by id, a deleted one without an account, and nobody else", async () => {
    const { services, accountId, named, deleted } = await setUp();
    expect(await findRecipient(services.db, named)).toEqual({ id: named, accountId });
    expect(await findRecipient(services.db, deleted)).toEqual({ id: deleted, accountId: null });
    expect(await findRecipient(services.db, remote)).toBeUndefined();
  });
});
