import { expect, test } from "./harness/fixtures.ts";
import {
  badgeCount,
  chooseOption,
  drawerEntry,
  eventually,
  listOptions,
  openFromDrawer,
} from "./harness/console-ui.ts";
import {
  causeErrors,
  messageTrees,
  sendActivities,
  signInWithTwoActors,
} from "./harness/stream-events.ts";

// docs/console-guide.md#streams: the page and the drawer badges, and its transitions (grow, reset,
// filter).

test("the drawer badges count each stream's messages as they arrive", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  for (const stream of ["Incoming", "Outgoing", "Error"] as const) {
    await eventually(() => badgeCount(page, stream)).toBe(0);
  }
  await causeErrors(setup, 1);
  await eventually(() => badgeCount(page, "Error")).toBe(1);
  await causeErrors(setup, 2);
  await eventually(() => badgeCount(page, "Error")).toBe(3);
  await sendActivities(setup, ["Create"]);
  await eventually(() => badgeCount(page, "Outgoing")).toBe(1);
  await eventually(() => badgeCount(page, "Incoming"), 20_000).toBe(1);
  expect(await badgeCount(page, "Error")).toBe(3);
});

test("an empty stream says Nothing to display; arriving messages are shown as JSON trees", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await drawerEntry(page, "Error").click();
  await page.waitForURL((url) => url.pathname === "/stream/error");
  await page.getByText("Nothing to display").waitFor();
  await causeErrors(setup, 2);
  await eventually(() => messageTrees(page).count()).toBe(2);
  expect(await page.getByText("Nothing to display").count()).toBe(0);
  await page.getByText('"no_such_method_1"').first().waitFor();
});

test("the type filter offers Don't filter plus each activity type held, and filters by it", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Outgoing");
  await sendActivities(setup, ["Create", "Like", "Create"]);
  await eventually(() => messageTrees(page).count()).toBe(3);
  const options = await listOptions(page, "Select Type of Activity");
  expect(options[0]).toBe("Don't filter");
  expect(options.slice(1).sort()).toEqual(["Create", "Like"]);

  await chooseOption(page, "Select Type of Activity", "Like");
  await eventually(() => messageTrees(page).count()).toBe(1);
  await page.getByText('"Like"').first().waitFor();
  expect(await page.getByText('"Create"').count()).toBe(0);
  await chooseOption(page, "Select Type of Activity", "Don't filter");
  await eventually(() => messageTrees(page).count()).toBe(3);
});

test("Reset empties only that stream, and a filter whose type disappeared returns to Don't filter", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Outgoing");
  await sendActivities(setup, ["Like", "Announce"]);
  await causeErrors(setup, 1);
  await eventually(() => messageTrees(page).count()).toBe(2);
  await chooseOption(page, "Select Type of Activity", "Announce");
  await eventually(() => messageTrees(page).count()).toBe(1);

  await page.getByRole("button", { name: "Reset" }).click();
  await page.getByText("Nothing to display").waitFor();
  await eventually(() => badgeCount(page, "Outgoing")).toBe(0);
  expect(await badgeCount(page, "Error")).toBe(1);
  await eventually(() =>
    page.getByRole("combobox", { name: "Select Type of Activity" }).innerText(),
  ).toBe("Don't filter");
  // New messages after the reset are shown unfiltered.
  await sendActivities(setup, ["Like"]);
  await eventually(() => messageTrees(page).count()).toBe(1);
  await page.getByText('"Like"').first().waitFor();
});

test("the side panel with Reset and the filter is 240 px wide and stays in view while the list scrolls", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Outgoing");
  await sendActivities(setup, ["Create", "Create", "Create", "Create", "Create", "Create"]);
  await eventually(() => badgeCount(page, "Outgoing")).toBe(6);
  const reset = page.getByRole("button", { name: "Reset" });
  const panel = page.getByRole("complementary").filter({ has: reset });
  expect((await panel.boundingBox())?.width).toBe(240);
  await eventually(() =>
    page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight * 2),
  ).toBe(true);
  await page.mouse.move(640, 450);
  await page.mouse.wheel(0, 1500);
  await eventually(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  const box = (await reset.boundingBox())!;
  expect(box.y).toBeGreaterThan(0);
  expect(box.y + box.height).toBeLessThan(900);
});
