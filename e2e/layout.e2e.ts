import type { Locator, Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import {
  chooseOption,
  drawer,
  drawerEntry,
  eventually,
  isDisabled,
  signIn,
  signInControl,
  topBar,
} from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";
import { startRemoteInbox } from "./harness/remote-inbox.ts";
import { startRemotePeer, type RemotePeer } from "./harness/remote-peer.ts";
import { squeezedTexts } from "./harness/squeezed-text.ts";

// One long word: an attempt's error and answer both carry it, and must wrap rather than widen.
const overloaded = `<html><body>${"Overloaded".repeat(30)}</body></html>`;

// docs/console-guide.md#layout: the drawer, the top bar and what each shows signed out and signed in.

test("signed out, the top bar offers a Sign In button that goes to /signin", async ({ page }) => {
  await page.goto("/");
  await signInControl(page).click();
  await page.waitForURL((url) => url.pathname === "/signin");
  expect(await topBar(page).getByRole("button", { name: "Open" }).count()).toBe(0);
});

test("signed out, the drawer shows only the title and the source-code link", async ({ page }) => {
  await page.goto("/");
  await drawer(page).waitFor();
  const controls = drawer(page).locator("a, button, [role=button]");
  await eventually(() => controls.count()).toBe(1);
  await drawer(page)
    .getByRole("link", { name: /source/i })
    .waitFor();
  for (const entry of ["Info", "Lookup", "Perform", "Incoming", "Outgoing", "Error"]) {
    expect(await drawerEntry(page, entry).count(), entry).toBe(0);
  }
});

test("the drawer is 240 px wide and the top bar sits beside it", async ({ page }) => {
  await page.goto("/");
  const drawerBox = await drawer(page).boundingBox();
  const barBox = await topBar(page).boundingBox();
  expect(drawerBox?.x).toBe(0);
  expect(drawerBox?.width).toBe(240);
  expect(barBox?.x).toBe(240);
  expect(barBox?.width).toBe(1280 - 240);
});

test("the top bar title shows the console host name and links to /", async ({ page, corral }) => {
  await page.goto("/signin");
  const host = new URL(corral.url).hostname;
  const title = topBar(page).getByRole("link", { name: new RegExp(host.replaceAll(".", "\\.")) });
  expect(await title.getAttribute("href")).toBe("/");
  await title.click();
  await page.waitForURL((url) => url.pathname === "/");
});

test("signed in, the drawer offers Info, Lookup, Perform, Incoming, Outgoing and Error", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("layout1");
  await signIn(page, account);
  for (const entry of ["Info", "Lookup", "Perform", "Incoming", "Outgoing", "Error"]) {
    await drawerEntry(page, entry).waitFor();
  }
  await drawer(page).getByText("Actor", { exact: true }).waitFor();
  await drawer(page).getByText("Account", { exact: true }).waitFor();
  await eventually(() => isDisabled(drawerEntry(page, "Lookup"))).toBe(false);
  await drawerEntry(page, "Lookup").click();
  await page.waitForURL((url) => url.pathname === "/lookup");
  await drawerEntry(page, "Perform").click();
  await page.waitForURL((url) => url.pathname === "/perform");
  await drawerEntry(page, "Outgoing").click();
  await page.waitForURL((url) => url.pathname === "/stream/outgoing");
  await drawerEntry(page, "Info").click();
  await page.waitForURL((url) => url.pathname === "/");
});

test("Lookup and Perform are disabled while there is no current actor", async ({
  page,
  account,
}) => {
  await signIn(page, account);
  await drawerEntry(page, "Info").waitFor();
  expect(await isDisabled(drawerEntry(page, "Lookup"))).toBe(true);
  expect(await isDisabled(drawerEntry(page, "Perform"))).toBe(true);
  expect(await isDisabled(drawerEntry(page, "Incoming"))).toBe(false);
});

test("a stream page without a stream type says You should not be here", async ({
  page,
  account,
}) => {
  await signIn(page, account);
  await page.goto("/stream");
  await page.getByText("You should not be here").waitFor();
});

// 'Something went wrong' (docs/console-guide.md#layout) is not reachable from outside: a stored
// state of the wrong shape is discarded (below) and every JSON value renders. The console's own
// error-boundary.test.tsx proves the fallback; README.md says so in the rule table.
test("a persisted user state it cannot read starts signed out instead of breaking the page", async ({
  page,
}) => {
  await page.goto("/signin");
  await page.evaluate(() => {
    const broken = {
      token: "stale",
      actors: { not: "a list" },
      methodInformations: 3,
      currentActor: 7,
    };
    localStorage.setItem("user-storage", JSON.stringify({ state: broken, version: 0 }));
  });
  await page.goto("/");
  await page.getByText("Please login").waitFor();
  await signInControl(page).waitFor();
  expect(await page.getByText("Something went wrong").count()).toBe(0);
});

test("at 390 px Perform's Deliveries fit the screen: each inbox a card with every field, its buttons and its attempts in view", async ({
  page,
  account,
  corral,
}) => {
  const good = await startRemoteInbox("amy", 202);
  const failing = await startRemoteInbox("cy", 500);
  failing.answer(500, overloaded);
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    await api.createActor("narrow_caller");
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, account);
    await page.goto("/perform");
    await chooseOption(page, "Method to perform", "send_message");
    const data = { data: { type: "Note", content: "narrow", to: [good.actor, failing.actor] } };
    await page.getByRole("textbox", { name: "data" }).fill(JSON.stringify(data));
    await page.getByRole("button", { name: "Perform" }).click();
    const result = page.getByRole("region", { name: "Result" });
    await eventually(() => result.getByTestId("trigger-state").textContent(), 20_000).toMatch(
      /1 delivered, 1 retrying/,
    );

    // Nothing in the Result is wider than the screen, nor scrolls sideways inside it.
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);
    const tooWide = await result.evaluate((region) =>
      [region, ...region.querySelectorAll("*")]
        .filter(
          (el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > 390,
        )
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`),
    );
    expect(tooWide).toEqual([]);
    expect(await squeezedTexts(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/corral-390-perform-deliveries.png", fullPage: true });

    // Every column of the wide table, as a labelled field of the inbox's card.
    const deliveries = result.getByRole("list", { name: "Deliveries" });
    const card = deliveries.getByRole("listitem", { name: failing.inbox });
    const field = async (label: string) => {
      const terms = await card.getByRole("term").allTextContents();
      const values = await card.getByRole("definition").allTextContents();
      return values[terms.indexOf(label)];
    };
    expect(await field("Delivery")).toBe("retrying");
    expect(await field("Status")).toBe("500");
    expect(await field("Attempts")).toBe("1");
    expect(await field("Last error")).toMatch(/500/);
    expect(await field("When")).toMatch(/^next attempt /);
    expect(await card.getByText(failing.inbox, { exact: true }).isVisible()).toBe(true);
    expect(await deliveries.getByRole("listitem", { name: good.inbox }).count()).toBe(1);
    for (const name of ["Show attempts", "Redeliver"]) {
      const button = card.getByRole("button", { name });
      await button.scrollIntoViewIfNeeded();
      const box = await button.boundingBox();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
    }
    // The attempts open inside the card, and nothing in them scrolls sideways or leaves the screen.
    await card.getByRole("button", { name: "Show attempts" }).click();
    const hide = card.getByRole("button", { name: "Hide attempts" });
    expect(await hide.getAttribute("aria-expanded")).toBe("true");
    const timeline = card.locator(`[id="${await hide.getAttribute("aria-controls")}"]`);
    await timeline.waitFor();
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await sidewaysAt390(timeline)).toEqual([]);
    expect(await squeezedTexts(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/corral-390-perform-attempts.png", fullPage: true });

    // Each attempt a block of the table's columns, labelled as its headers are.
    const attempts = timeline.getByRole("list", { name: `Attempts to ${failing.inbox}` });
    await expectAttemptsInView(attempts, [
      "#",
      "Time",
      "Status",
      "Duration (ms)",
      "Error",
      "Answer",
    ]);
  } finally {
    await Promise.all([good.close(), failing.close()]);
  }
});

test("at 390 px a host's Newest attempts are a block each, its inbox, status, error and answer in view", async ({
  page,
  account,
  corral,
}) => {
  const failing = await startRemoteInbox("dee", 500);
  failing.answer(500, overloaded);
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    const actor = await api.createActor("narrow_host");
    const data = { type: "Note", content: "narrow", to: [failing.actor] };
    await api.trigger("send_message", { actor: actor.id, data });
    // The page reads the host once: wait until the server lists the attempt.
    const detail = `${corral.url}/fe/account/hosts/${encodeURIComponent(failing.host)}`;
    const headers = { Authorization: `Bearer ${api.token}` };
    await eventually(async () => {
      const answer = (await (await fetch(detail, { headers })).json()) as { attempts?: unknown[] };
      return answer.attempts?.length ?? 0;
    }, 20_000).toBe(1);

    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, account, { awaitStreams: false });
    await page.goto(`/deliveries/${encodeURIComponent(failing.host)}`);
    const section = page.getByRole("region", { name: "Delivery attempts" });
    await section.getByText(failing.inbox, { exact: true }).waitFor();
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await sidewaysAt390(section)).toEqual([]);
    await page.screenshot({ path: "/tmp/corral-390-host-attempts.png", fullPage: true });
    const attempts = section.getByRole("list", { name: "Newest attempts" });
    const labels = ["Time", "Inbox", "Status", "Duration (ms)", "Error", "Answer"];
    await expectAttemptsInView(attempts, labels, { Inbox: failing.inbox });
  } finally {
    await failing.close();
  }
});

test("at 390 px a host's refusals and its check steps are a block each, as are the Refused screen's rows: nothing scrolls sideways", async ({
  page,
  account,
  corral,
}) => {
  const peer = await startRemotePeer("nia");
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    const actor = await api.createActor("narrow_refused");
    const inbox = actor.inbox as string;
    // Known both ways (it wrote to us, we delivered to it), and one of its requests refused.
    expect(await peer.post(inbox, peerNote(peer, actor.id, 1))).toBe(202);
    expect(await peer.post(inbox, peerNote(peer, actor.id, 2), { badSignature: true })).toBe(401);
    const data = { type: "Note", content: "narrow", to: [peer.actor] };
    await api.trigger("send_message", { actor: actor.id, data });

    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, account, { awaitStreams: false });
    await page.goto(`/deliveries/${encodeURIComponent(peer.host)}`);
    await page.getByRole("button", { name: "Check host" }).click();
    const check = page.getByRole("region", { name: "Check host" });
    await check.getByRole("alert").waitFor({ timeout: 30_000 });
    const refusals = page.getByRole("region", { name: "Its refusals" });
    await refusals.getByText(/does not verify/).waitFor();

    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await sidewaysAt390(check)).toEqual([]);
    expect(await sidewaysAt390(refusals)).toEqual([]);
    expect(await squeezedTexts(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/corral-390-host-check-refusals.png", fullPage: true });

    const steps = check.getByRole("list", { name: "Check steps" });
    await expectBlocksInView(steps, ["Step", "Result", "Time (ms)", "Detail"], { Result: "ok" });
    expect(await firstFields(steps)).toEqual([
      "resolve",
      "connect",
      "nodeinfo",
      "actor",
      "webfinger",
      "inbox",
    ]);
    const refusal = {
      Reason: /^Bad signature: .*does not verify/,
      Status: "401",
      Activity: `Create ${peer.origin}/activities/2`,
    };
    const newest = refusals.getByRole("list", { name: "Newest refusals" });
    await expectBlocksInView(newest, ["Time", "Reason", "Status", "Activity"], refusal);

    // The Refused screen, filtered by the host, the same way.
    await page.goto(`/refused?host=${encodeURIComponent(peer.host)}`);
    const refused = page.getByRole("list", { name: "Refused requests" });
    await refused.waitFor();
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await sidewaysAt390(refused)).toEqual([]);
    expect(await squeezedTexts(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/corral-390-refused.png", fullPage: true });
    const labels = ["Time", "Host", "Reason", "Key id", "Status", "Activity", "Body"];
    await expectBlocksInView(refused, labels, {
      ...refusal,
      Host: peer.host,
      "Key id": `${peer.actor}#main-key`,
      Reason: /does not verify.*Bad signature$/,
    });
  } finally {
    await peer.close();
  }
});

test("at 390 px the failed deliveries on Deliveries are a block each, Redeliver and Show call in view", async ({
  page,
  account,
  corral,
}) => {
  // 410 Gone is an answer no retry changes: the delivery fails at its first attempt.
  const gone = await startRemoteInbox("gone_narrow", 410);
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    const actor = await api.createActor("narrow_gone");
    const data = { type: "Note", content: "narrow", to: [gone.actor] };
    await api.trigger("send_message", { actor: actor.id, data });
    await eventually(() => gone.attempts(), 20_000).toBe(1);

    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, account, { awaitStreams: false });
    await page.goto("/deliveries");
    const name = `Failed deliveries to ${gone.host}`;
    const section = page.getByRole("region", { name });
    await section.getByText(gone.inbox, { exact: true }).waitFor({ timeout: 20_000 });
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await sidewaysAt390(section)).toEqual([]);
    expect(await squeezedTexts(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/corral-390-failed-deliveries.png", fullPage: true });

    const failed = section.getByRole("list", { name });
    await expectBlocksInView(failed, ["Inbox", "Status", "Attempts", "Last error"], {
      Inbox: gone.inbox,
      Status: "410",
      Attempts: "1",
      "Last error": /410/,
    });
    for (const control of [
      failed.getByRole("button", { name: "Redeliver" }),
      failed.getByRole("link", { name: "Show call" }),
    ]) {
      await control.scrollIntoViewIfNeeded();
      const box = await control.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
  } finally {
    await gone.close();
  }
});

/** A Create of a Note from `peer` to `to`, numbered `n`. */
function peerNote(peer: RemotePeer, to: string, n: number) {
  return {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${peer.origin}/activities/${n}`,
    type: "Create",
    actor: peer.actor,
    to: [to],
    object: { id: `${peer.origin}/notes/${n}`, type: "Note", attributedTo: peer.actor, to: [to] },
  };
}

/** The element and those inside it that scroll sideways or reach past a 390 px screen. */
/** How wide the page is laid out, scrolled sideways or not. */
function pageScrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

function sidewaysAt390(box: Locator): Promise<string[]> {
  return box.evaluate((root) =>
    [root, ...root.querySelectorAll("*")]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > 390)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`),
  );
}

/**
 * Each attempt of `list` (answered 500 with `overloaded`) is a block labelled `labels`, its
 * status, error, answer (and any `more` field) visible within a 390 px screen.
 */
function expectAttemptsInView(
  list: Locator,
  labels: string[],
  more: Record<string, string | RegExp> = {},
): Promise<void> {
  const expected = {
    Status: /^500$/,
    Error: /answered 500 .*Overloaded/,
    Answer: /^<html>/,
    ...more,
  };
  return expectBlocksInView(list, labels, expected);
}

/**
 * Each item of `list` is a block of fields labelled `labels` (the table's headers, in order), and
 * each field of `expected` reads so (a string: exactly) and is visible within a 390 px screen.
 */
async function expectBlocksInView(
  list: Locator,
  labels: string[],
  expected: Record<string, string | RegExp>,
): Promise<void> {
  const blocks = list.getByRole("listitem");
  expect(await blocks.count()).toBeGreaterThanOrEqual(1);
  for (const block of await blocks.all()) {
    expect(await block.getByRole("term").allTextContents()).toEqual(labels);
    for (const [label, text] of Object.entries(expected)) {
      const value = block.getByRole("definition").nth(labels.indexOf(label));
      const content = await value.textContent();
      if (typeof text === "string") expect(content, label).toBe(text);
      else expect(content, label).toMatch(text);
      expect(await value.isVisible(), label).toBe(true);
      const box = await value.boundingBox();
      expect(box!.x, label).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(390);
    }
  }
}

/** The first field of each block of `list`. */
function firstFields(list: Locator): Promise<string[]> {
  return list
    .getByRole("listitem")
    .evaluateAll((items) => items.map((item) => item.querySelector("dd")?.textContent ?? ""));
}
