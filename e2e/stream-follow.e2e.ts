import type { Locator, Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import { badgeCount, eventually, openFromDrawer, signIn } from "./harness/console-ui.ts";
import { signInApi, type FeApi } from "./harness/fe-api.ts";
import { isInView, scrollTop, wheel } from "./harness/in-view.ts";
import { signInWithTwoActors } from "./harness/stream-events.ts";

// A stream page opens at its newest end and follows arrivals there; scrolled away it holds still
// and offers "Jump to newest (N)" (docs: e2e/README.md maps this file).

/** The summary line of the message whose routing key (an unknown method's name) is this. */
const line = (page: Page, method: string) =>
  page.getByTestId("message-summary").filter({ hasText: new RegExp(`${method}(?!\\d)`) });

async function causeErrors(api: FeApi, actor: string, names: string[]): Promise<void> {
  for (const name of names) await api.trigger(name, { actor });
}

const jump = (page: Page) => page.getByRole("button", { name: /^Jump to newest/ });

/** The message card whose summary line names this method. */
const card = (page: Page, method: string) =>
  page.getByTestId("stream-message").filter({ has: line(page, method) });

/** How far below the fixed top bar's bottom the element's top is, in pixels. */
const belowTopBar = (locator: Locator) =>
  locator.evaluate((node) => {
    const bar = document.querySelector("header.MuiAppBar-positionFixed")!;
    return node.getBoundingClientRect().top - bar.getBoundingClientRect().bottom;
  });

/** How far the page's end lies below the window's bottom, in pixels. */
const bottomGap = (page: Page) =>
  page.evaluate(
    () => document.documentElement.scrollHeight - (window.scrollY + window.innerHeight),
  );

/**
 * The message (taller than the window) is shown from its top, just below the top bar, so its
 * summary line can be read; the page's end is below the window, and the view follows.
 */
async function shownFromItsTop(page: Page, method: string): Promise<void> {
  await eventually(() => isInView(line(page, method))).toBe(true);
  await eventually(async () => Math.abs(await belowTopBar(card(page, method)))).toBeLessThan(1);
  expect(await bottomGap(page)).toBeGreaterThan(0);
  expect(await jump(page).count()).toBe(0);
}

test("a new browser opens a stream with 100+ retained messages at the newest, also after a reload, in Compact and Newest first", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = (await api.createActor(`f_${account.name}`)).id;
  await causeErrors(
    api,
    actor,
    Array.from({ length: 105 }, (_, i) => `kept_${i}`),
  );
  await signIn(page, account);
  await openFromDrawer(page, "Error");
  await eventually(() => badgeCount(page, "Error")).toBe(100);
  await eventually(() => line(page, "kept_104").count()).toBe(1);
  await eventually(() => isInView(line(page, "kept_104"))).toBe(true);
  expect(await jump(page).count()).toBe(0);

  await page.reload();
  await eventually(() => line(page, "kept_104").count()).toBe(1);
  await eventually(() => isInView(line(page, "kept_104"))).toBe(true);

  await page.getByRole("switch", { name: "Compact" }).check();
  await eventually(() => isInView(line(page, "kept_104"))).toBe(true);
  await page.reload();
  await eventually(() => line(page, "kept_104").count()).toBe(1);
  await eventually(() => isInView(line(page, "kept_104"))).toBe(true);

  await page.getByRole("switch", { name: "Newest first" }).check();
  await eventually(() => isInView(line(page, "kept_104"))).toBe(true);
  await page.reload();
  await eventually(() => line(page, "kept_104").count()).toBe(1);
  await eventually(() => isInView(line(page, "kept_104"))).toBe(true);
  expect(await scrollTop(page)).toBe(0);
});

test("at the newest end each arrival comes into view; scrolled away the view holds and Jump to newest (N) brings it back", async ({
  page,
  account,
  corral,
}) => {
  const { api, sender } = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Error");
  await causeErrors(api, sender, ["before_0", "before_1", "before_2", "before_3", "before_4"]);
  await eventually(() => isInView(line(page, "before_4"))).toBe(true);
  await api.trigger("arrived_0", { actor: sender });
  await eventually(() => isInView(line(page, "arrived_0"))).toBe(true);

  await wheel(page, -700);
  await jump(page).waitFor();
  expect(await jump(page).textContent()).toBe("Jump to newest");
  const held = await scrollTop(page);
  await causeErrors(api, sender, ["arrived_1", "arrived_2"]);
  // Its accessible name is its visible label, count included.
  const jumpTwo = page.getByRole("button", { name: "Jump to newest (2)", exact: true });
  await jumpTwo.waitFor();
  expect(await jumpTwo.textContent()).toBe("Jump to newest (2)");
  expect(await scrollTop(page)).toBe(held);
  expect(await isInView(line(page, "arrived_2"))).toBe(false);

  await jumpTwo.click();
  await eventually(() => isInView(line(page, "arrived_2"))).toBe(true);
  expect(await jump(page).count()).toBe(0);
  await api.trigger("arrived_3", { actor: sender });
  await eventually(() => isInView(line(page, "arrived_3"))).toBe(true);

  // Newest first: the newest end is the top; rows added above a view scrolled away do not move it.
  await page.getByRole("switch", { name: "Newest first" }).check();
  await eventually(() => isInView(line(page, "arrived_3"))).toBe(true);
  await wheel(page, 700);
  await jump(page).waitFor();
  const reading = page
    .locator("[data-testid=stream-message]")
    .filter({ has: line(page, "before_2") });
  const before = await reading.evaluate((node) => node.getBoundingClientRect().top);
  await api.trigger("arrived_4", { actor: sender });
  await page.getByRole("button", { name: "Jump to newest (1)", exact: true }).waitFor();
  expect(await reading.evaluate((node) => node.getBoundingClientRect().top)).toBe(before);
  await page.getByRole("button", { name: "Jump to newest (1)", exact: true }).click();
  await eventually(() => isInView(line(page, "arrived_4"))).toBe(true);
});

test("a message taller than the window comes into view at its summary line, below the top bar; a short one after it shows the page's end", async ({
  page,
  account,
  corral,
}) => {
  const { api, sender } = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Error");
  await causeErrors(api, sender, ["short_0", "short_1"]);
  await eventually(() => isInView(line(page, "short_1"))).toBe(true);
  // An unknown method's error carries the body it was sent: 80 lines of tree, taller than 900 px.
  const lines = Array.from({ length: 80 }, (_, i) => `line ${i}`);
  await api.trigger("tall_0", { actor: sender, data: { lines } });
  await eventually(() => card(page, "tall_0").count()).toBe(1);
  expect(
    await card(page, "tall_0").evaluate((node) => node.getBoundingClientRect().height),
  ).toBeGreaterThan(await page.evaluate(() => window.innerHeight));
  await shownFromItsTop(page, "tall_0");

  // Reading down through it keeps following: a short arrival brings the page's end into view.
  await wheel(page, 300);
  await eventually(() => isInView(line(page, "tall_0"))).toBe(false);
  expect(await jump(page).count()).toBe(0);
  await api.trigger("short_2", { actor: sender });
  await eventually(() => isInView(line(page, "short_2"))).toBe(true);
  await eventually(() => bottomGap(page)).toBeLessThanOrEqual(1);
  expect(await jump(page).count()).toBe(0);

  // The next tall arrival, a reload, and Jump to newest all show the newest from its top.
  await api.trigger("tall_1", { actor: sender, data: { lines } });
  await shownFromItsTop(page, "tall_1");
  await page.reload();
  await eventually(() => card(page, "tall_1").count()).toBe(1);
  await shownFromItsTop(page, "tall_1");
  // Scrolled up away from it the view holds still.
  await wheel(page, -700);
  await jump(page).waitFor();
  await jump(page).click();
  await shownFromItsTop(page, "tall_1");
});

test("a link to a message (?event=N) opens with that message in view, not the newest", async ({
  page,
  account,
  corral,
}) => {
  const { api, sender } = await signInWithTwoActors(page, corral, account);
  await causeErrors(
    api,
    sender,
    Array.from({ length: 8 }, (_, i) => `linked_${i}`),
  );
  await openFromDrawer(page, "Error");
  await eventually(() => badgeCount(page, "Error")).toBe(8);
  const response = await fetch(`${corral.url}/fe/account/events/error?limit=50`, {
    headers: { Authorization: `Bearer ${api.token}` },
  });
  const { events } = (await response.json()) as {
    events: Array<{ id: number; event: { routing_key: string } }>;
  };
  const first = events.find((e) => e.event.routing_key === "linked_1")!;
  await page.goto(`/stream/error?event=${first.id}`);
  const focused = page.locator("[data-testid=stream-message][aria-current=true]");
  await eventually(() => focused.count()).toBe(1);
  await eventually(() => isInView(focused)).toBe(true);
  expect(await isInView(line(page, "linked_7"))).toBe(false);
});
