import type { Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import { badgeCount, eventually, openFromDrawer } from "./harness/console-ui.ts";
import { buildCreateNote } from "./harness/fe-api.ts";
import { causeErrors, signInWithTwoActors } from "./harness/stream-events.ts";

// Streams one can scan (docs/console-guide.md#streams): Compact, Open in Perform, and the tree's link
// rule, against the real server's messages in a real Chromium.

const cards = (page: Page) => page.getByTestId("stream-message");
const method = (page: Page) => page.getByRole("combobox", { name: "Method to perform" });
const dataField = (page: Page) => page.getByRole("textbox", { name: "data" });

/** How many message cards lie wholly inside the window. */
function cardsOnScreen(page: Page): Promise<number> {
  return cards(page).evaluateAll(
    (nodes) =>
      nodes.filter((node) => {
        const box = node.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
      }).length,
  );
}

test("Compact: at 1400×900 at least 20 one-line messages show at once; a click or Enter opens a tree", async ({
  page,
  account,
  corral,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const setup = await signInWithTwoActors(page, corral, account);
  await causeErrors(setup, 26);
  await eventually(() => badgeCount(page, "Error"), 30_000).toBe(26);
  await openFromDrawer(page, "Error");
  await page.getByRole("switch", { name: "Compact" }).check();
  await eventually(() => cardsOnScreen(page)).toBeGreaterThanOrEqual(20);
  expect(await page.locator("main .json-tree").count()).toBe(0);

  // Each line is a button named by the summary it shows, closed until clicked.
  // Found by name: the page opens at its newest end, so the oldest need not be the first rendered.
  const first = page.getByRole("button", { name: /no_such_method_0(?!\d)/ });
  expect(await first.getAttribute("aria-expanded")).toBe("false");
  expect(await first.innerText()).toMatch(
    /^\d\d:\d\d:\d\d\s+no_such_method_0\s+→ unknown method "no_such_method_0"$/,
  );
  await first.click();
  const firstTree = cards(page).filter({ has: first }).locator(".json-tree");
  await eventually(() => firstTree.innerText()).toContain('"no_such_method_0"');
  await first.click();
  await eventually(() => page.locator("main .json-tree").count()).toBe(0);

  // From the keyboard: Tab reaches the line, Enter opens it and Enter closes it again.
  const second = page.getByRole("button", { name: /no_such_method_1(?!\d)/ });
  await second.focus();
  await page.keyboard.press("Enter");
  await eventually(() => second.getAttribute("aria-expanded")).toBe("true");
  await eventually(() =>
    cards(page).filter({ has: second }).locator(".json-tree").innerText(),
  ).toContain('"no_such_method_1"');
  await page.keyboard.press("Enter");
  await eventually(() => page.locator("main .json-tree").count()).toBe(0);

  // Off: full trees (docs/console-guide.md#json-trees), one per message.
  await page.getByRole("switch", { name: "Compact" }).uncheck();
  await eventually(() => page.locator("main .json-tree").count()).toBeGreaterThan(0);
  expect(await cards(page).first().locator(".json-tree").innerText()).toContain("no_such_method");
});

test("Open in Perform on an incoming Create opens send_message with the activity, its id removed, as the actor acting", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  const activity = buildCreateNote(setup.sender, setup.receiver, "answer me");
  await setup.api.trigger("send_message", { actor: setup.sender, data: activity });
  await eventually(() => badgeCount(page, "Incoming"), 20_000).toBe(1);
  await openFromDrawer(page, "Incoming");
  await cards(page).first().getByRole("button", { name: "Open in Perform" }).click();

  await page.waitForURL((url) => url.pathname === "/perform");
  await eventually(() => method(page).innerText()).toBe("send_message");
  const { id: _id, ...withoutId } = activity;
  // As the actor acting (the receiver): its actor and its Note's author name them (issue 33, 5).
  const asReceiver = {
    ...withoutId,
    actor: setup.receiver,
    object: { ...withoutId.object, attributedTo: setup.receiver },
  };
  expect(JSON.parse(await dataField(page).inputValue())).toEqual({ data: asReceiver });
  // As the actor that received it, ready to send: the Perform button is there to press.
  await eventually(() => page.getByTestId("current-actor").innerText()).toContain(setup.receiver);
  expect(await page.getByRole("button", { name: "Perform" }).isEnabled()).toBe(true);
});

test("Open in Perform on an outgoing message a call caused opens that call's method and data", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  // Made through the API, not from this browser's Perform: the call comes from the server's record.
  const activity = buildCreateNote(setup.sender, setup.receiver, "sent by a call");
  await setup.api.trigger("send_message", { actor: setup.sender, data: activity });
  await eventually(() => badgeCount(page, "Outgoing"), 20_000).toBe(1);
  await openFromDrawer(page, "Outgoing");
  await cards(page).first().getByRole("button", { name: "Open in Perform" }).click();

  await page.waitForURL((url) => url.pathname === "/perform");
  await eventually(() => method(page).innerText()).toBe("send_message");
  // The call's data as it was sent, its activity id included.
  expect(JSON.parse(await dataField(page).inputValue())).toEqual({ data: activity });
  await eventually(() => page.getByTestId("current-actor").innerText()).toContain(setup.sender);
});

test("in a tree, an error line that starts with a URL is text; a value that is one URL is a link", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  // An address on this server that is no actor: the error's lines start with it, as in
  // "http://…/no-such-actor is not a live actor here".
  const missing = `${corral.url}/no-such-actor`;
  await setup.api.trigger("send_message", {
    actor: setup.sender,
    data: buildCreateNote(setup.sender, missing, "to nobody"),
  });
  await openFromDrawer(page, "Error");
  const tree = page.locator("main .json-tree").first();
  await eventually(() => tree.innerText(), 20_000).toContain(`${missing} is not a live actor`);
  const line = tree.getByText(`"${missing} is not a live actor here"`, { exact: true });
  expect(await line.count()).toBe(1);
  expect(await line.locator("xpath=ancestor-or-self::a").count()).toBe(0);
  expect(await tree.getByRole("link", { name: new RegExp(`${missing} is`) }).count()).toBe(0);
  // The message's target is one URL: a link to Lookup (its row: the failed body, shown as JSON,
  // names the same address in its own rows).
  const target = tree
    .locator(".jt-key", { hasText: /^target: $/ })
    .locator("xpath=..")
    .getByRole("link", { name: missing, exact: true });
  expect(await target.getAttribute("href")).toBe(`/lookup?uri=${encodeURIComponent(missing)}`);
  await target.click();
  await page.waitForURL((url) => url.pathname === "/lookup");
  expect(new URL(page.url()).searchParams.get("uri")).toBe(missing);
});
