import { expect, test } from "./harness/fixtures.ts";
import { drawerEntry, eventually, openFromDrawer, signIn } from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";
import { startRemoteInbox } from "./harness/remote-inbox.ts";

// issue 14 "Done when", against the real server and a real remote: a host answering 503 is
// failing with its queue; "Stop delivery" holds the queue; once the remote answers again,
// "Resume delivery" delivers each queued message exactly once (the remote counts them).

test("a failing host is stopped, holds its queue, and on resume delivers each message once; the outgoing messages say so", async ({
  page,
  account,
  corral,
}) => {
  const remote = await startRemoteInbox("zoe", 503);
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    const actor = await api.createActor("sender");
    // The console shows the stream messages that arrive after it connects.
    await signIn(page, account);
    for (const n of [1, 2, 3]) {
      await api.trigger("send_message", {
        actor: actor.id,
        data: { type: "Note", content: `n${n}`, to: [remote.actor] },
      });
    }
    await eventually(() => remote.attempts(), 20_000).toBe(3);

    await drawerEntry(page, "Deliveries").click();
    const table = page.getByRole("table", { name: "Remote hosts" });
    const row = table.getByRole("row").filter({ hasText: remote.host });
    const state = row.getByRole("cell").nth(1);
    const queued = row.getByRole("cell").nth(5);
    await eventually(() => state.textContent(), 20_000).toMatch(/^retrying/);
    expect(await queued.textContent()).toBe("3");

    await row.getByRole("button", { name: "Stop delivery" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Stop delivery" }).click();
    await eventually(() => state.textContent(), 20_000).toMatch(/^stopped/);
    expect(await queued.textContent()).toBe("3");

    // The outgoing messages say so on their summary lines.
    await openFromDrawer(page, "Outgoing");
    const states = page.getByTestId("delivery-state");
    await eventually(() => states.allTextContents(), 20_000).toEqual([
      "stopped",
      "stopped",
      "stopped",
    ]);

    remote.answer(202);
    // While stopped nothing is tried, whatever the remote would now answer.
    const attemptsWhileStopped = remote.attempts();
    await drawerEntry(page, "Deliveries").click();
    await row.getByRole("button", { name: "Resume delivery" }).click();
    await eventually(
      () => remote.accepted.map((note) => (note as { content: string }).content).sort(),
      30_000,
    ).toEqual(["n1", "n2", "n3"]);
    await eventually(() => state.textContent(), 20_000).toMatch(/^delivered/);
    // The host is ok from its first delivery on; the table catches up with the other two on
    // its next refresh (every 5 s), since each outcome is written as its POST ends.
    await eventually(() => queued.textContent(), 20_000).toBe("0");
    expect(remote.attempts()).toBe(attemptsWhileStopped + 3);
    await openFromDrawer(page, "Outgoing");
    await eventually(() => states.allTextContents(), 20_000).toEqual([
      "delivered 1/1",
      "delivered 1/1",
      "delivered 1/1",
    ]);
    // Exactly once: the page's refresh and the queue's next rounds send nothing more.
    await page.waitForTimeout(2_000);
    expect(remote.accepted).toHaveLength(3);
  } finally {
    await remote.close();
  }
});

test("a delivery given up on is listed with its call; Redeliver sends it again once", async ({
  page,
  account,
  corral,
}) => {
  // 410 Gone is an answer no retry changes: the delivery fails at its first attempt.
  const remote = await startRemoteInbox("gone", 410);
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    const actor = await api.createActor("persistent");
    await api.trigger("send_message", {
      actor: actor.id,
      data: { type: "Note", content: "once more", to: [remote.actor] },
    });
    await eventually(() => remote.attempts(), 20_000).toBe(1);

    await signIn(page, account);
    await drawerEntry(page, "Deliveries").click();
    const failed = page.getByRole("table", { name: `Failed deliveries to ${remote.host}` });
    const row = failed.getByRole("row").filter({ hasText: remote.inbox });
    await eventually(() => row.getByRole("cell").nth(1).textContent(), 20_000).toBe("410");

    // The link leads to the call's record on the Perform page, which says the same.
    await row.getByRole("link", { name: "Show call" }).click();
    await page.waitForURL((url) => url.pathname === "/perform" && url.searchParams.has("call"));
    const result = page.getByRole("region", { name: "Result" });
    const delivery = result.getByRole("row").filter({ hasText: remote.inbox });
    await eventually(() => delivery.getByRole("cell").nth(1).textContent()).toBe("failed");
    expect(await delivery.getByRole("cell").nth(2).textContent()).toBe("410");

    remote.answer(202);
    await page.goBack();
    await row.getByRole("button", { name: "Redeliver" }).click();
    await eventually(() => remote.accepted.length, 20_000).toBe(1);
    await eventually(() => failed.count(), 20_000).toBe(0);
    await page.waitForTimeout(2_000);
    expect(remote.attempts()).toBe(2);
  } finally {
    await remote.close();
  }
});
