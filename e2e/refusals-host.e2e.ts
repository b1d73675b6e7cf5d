import { expect, test } from "./harness/fixtures.ts";
import { drawerEntry, eventually, signIn } from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";
import { startRemotePeer } from "./harness/remote-peer.ts";

// issue 28 "Done when", against the real server and a real remote peer (its own key, NodeInfo,
// WebFinger): a remote whose Digest is wrong, whose signature is bad, or whose Date is 2 hours
// off shows on "Refused" with the reason in words and on its host's page; "Check host" on a host whose inbox answers 403 ends with a verdict naming the
// inbox step and the 403.

function note(peer: { origin: string; actor: string }, to: string, n: number) {
  return {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${peer.origin}/activities/${n}`,
    type: "Create",
    actor: peer.actor,
    to: [to],
    object: {
      id: `${peer.origin}/notes/${n}`,
      type: "Note",
      attributedTo: peer.actor,
      to: [to],
      content: `note ${n}`,
    },
  };
}

const badRequests = [
  {
    what: "whose Digest is wrong",
    options: { wrongDigest: true },
    words: "the Digest header does not match the body",
    reason: "Digest does not match the body",
  },
  {
    what: "whose signature is bad",
    options: { badSignature: true },
    words: "does not verify with its key",
    reason: "Bad signature",
  },
  {
    what: "whose Date is 2 hours off",
    options: { dateOffsetMs: -2 * 3600_000 },
    words: "Date is 2 h 0 min behind our clock",
    reason: "Date too far off",
  },
];

for (const bad of badRequests) {
  test(`a remote ${bad.what} shows on Refused with the reason in words, and on its host's page`, async ({
    page,
    account,
    corral,
  }) => {
    const peer = await startRemotePeer("mallory");
    try {
      const api = await signInApi(corral.url, account.name, account.password);
      const actor = await api.createActor(`target_${account.name}`);
      const inbox = actor.inbox as string;
      expect(await peer.post(inbox, note(peer, actor.id, 1), bad.options)).toBe(401);

      await signIn(page, account, { awaitStreams: false });
      await drawerEntry(page, "Refused").click();
      const table = page.getByRole("table", { name: "Refused requests" });
      const row = table.getByRole("row").filter({ hasText: peer.host });
      await row.waitFor();
      const cells = row.getByRole("cell");
      expect(await cells.nth(2).textContent()).toContain(bad.words);
      expect(await cells.nth(2).textContent()).toContain(bad.reason);
      expect(await cells.nth(4).textContent()).toBe("401");
      expect(await cells.nth(3).textContent()).toBe(`${peer.actor}#main-key`);

      await row.getByRole("link", { name: peer.host }).click();
      await page.getByRole("heading", { name: peer.host, level: 1 }).waitFor();
      const inbound = page.getByRole("region", { name: "Inbound (from it)" });
      await eventually(() => inbound.textContent()).toContain("Refused (7 days)1");
      expect(await inbound.textContent()).toContain(`Refused: ${bad.reason}1`);
      const itsRefusals = page.getByRole("table", { name: "Newest refusals" });
      await eventually(() => itsRefusals.textContent()).toContain(bad.words);

      // Nothing refused reaches a stream: the account's retained log holds no event at all.
      const log = await fetch(`${corral.url}/fe/account/events/all`, {
        headers: { Authorization: `Bearer ${api.token}` },
      });
      expect(log.status).toBe(200);
      expect(((await log.json()) as { events: unknown[] }).events).toEqual([]);
    } finally {
      await peer.close();
    }
  });
}

test("'Check host' on a host whose inbox answers 403 ends with a verdict naming the inbox step and the 403", async ({
  page,
  account,
  corral,
}) => {
  const peer = await startRemotePeer("zoe");
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    const actor = await api.createActor(`checker_${account.name}`);
    // Known both ways: it wrote to us (so its actor is known), we delivered to it (its scheme).
    expect(await peer.post(actor.inbox as string, note(peer, actor.id, 1))).toBe(202);
    await api.trigger("send_message", {
      actor: actor.id,
      data: { type: "Note", content: "hello", to: [peer.actor] },
    });
    peer.inboxGetStatus(403);

    await signIn(page, account, { awaitStreams: false });
    await drawerEntry(page, "Deliveries").click();
    const hosts = page.getByRole("table", { name: "Remote hosts" });
    await eventually(() => hosts.textContent(), 20_000).toContain(peer.host);
    await hosts.getByRole("link", { name: peer.host }).click();
    await page.getByRole("heading", { name: peer.host, level: 1 }).waitFor();

    await page.getByRole("button", { name: "Check host" }).click();
    // The steps arrive one by one; the verdict ends the check.
    const verdict = page.getByRole("alert").filter({ hasText: /inbox/ });
    await verdict.waitFor({ timeout: 30_000 });
    const steps = page.getByRole("table", { name: "Check steps" });
    const rows = steps.getByRole("row");
    const names = await rows.evaluateAll((all) =>
      all.slice(1).map((row) => row.querySelector("td")?.textContent),
    );
    expect(names).toEqual(["resolve", "connect", "nodeinfo", "actor", "webfinger", "inbox"]);
    const inboxRow = rows.filter({ hasText: /^inbox/ });
    expect(await inboxRow.getByRole("cell").nth(1).textContent()).toBe("failed");
    expect(await verdict.textContent()).toMatch(/^The GET of its inbox failed: .*403/);
  } finally {
    await peer.close();
  }
});
