import type { Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import {
  badgeCount,
  chooseOption,
  drawerEntry,
  eventually,
  listOptions,
  recordFeRequests,
  signIn,
  openFromDrawer,
  streamsConnected,
} from "./harness/console-ui.ts";
import { buildActivity, signInApi, type FeApi } from "./harness/fe-api.ts";
import type { Account } from "./harness/fixtures.ts";
import type { Corral } from "./harness/corral-server.ts";

// console.md §2 "Stream page" and drawer badges, §3 message streams, §4 stream transitions.
// Every message comes from the real server: an unknown method lands on the error stream, a
// send_message between two of the account's actors on the outgoing and incoming streams.

type Setup = { api: FeApi; sender: string; receiver: string };

async function signInWithTwoActors(page: Page, corral: Corral, account: Account): Promise<Setup> {
  const api = await signInApi(corral.url, account.name, account.password);
  // Handles are unique per server, and every test here has its own account.
  const sender = (await api.createActor(`s_${account.name}`)).id;
  const receiver = (await api.createActor(`r_${account.name}`)).id;
  await signIn(page, account);
  await drawerEntry(page, "Incoming").waitFor();
  return { api, sender, receiver };
}

async function reloadAndReconnect(page: Page): Promise<void> {
  const reconnected = streamsConnected(page);
  await page.reload();
  await reconnected;
}

/** The message trees on a stream page. */
function messageTrees(page: Page) {
  return page.locator("main .json-tree");
}

async function causeErrors({ api, sender }: Setup, count: number): Promise<void> {
  for (let index = 0; index < count; index++)
    await api.trigger(`no_such_method_${index}`, { actor: sender });
}

async function sendActivities({ api, sender, receiver }: Setup, types: string[]): Promise<void> {
  for (const type of types)
    await api.trigger("send_message", {
      actor: sender,
      data: buildActivity(type, sender, receiver),
    });
}

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

test("messages are kept across a reload, without being doubled", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Error");
  await causeErrors(setup, 3);
  await eventually(() => messageTrees(page).count()).toBe(3);
  await page.waitForTimeout(1_000); // a person reads before reloading
  await reloadAndReconnect(page);
  await eventually(() => messageTrees(page).count()).toBe(3);
  await eventually(() => badgeCount(page, "Error")).toBe(3);
  // The reconnect resumes after the last id held: a new event is added once, nothing replayed.
  await causeErrors(setup, 1);
  await eventually(() => badgeCount(page, "Error")).toBe(4);
  await page.waitForTimeout(500);
  expect(await messageTrees(page).count()).toBe(4);
});

test("messages that arrived just before a reload are not lost", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Error");
  await causeErrors(setup, 2);
  await eventually(() => messageTrees(page).count()).toBe(2);
  await reloadAndReconnect(page);
  await eventually(() => badgeCount(page, "Error")).toBe(2);
  expect(await messageTrees(page).count()).toBe(2);
});

test("each stream is requested as text/event-stream with the bearer header", async ({
  page,
  account,
  corral,
}) => {
  const requests = recordFeRequests(page);
  await signInWithTwoActors(page, corral, account);
  const token = JSON.parse((await page.evaluate(() => localStorage.getItem("user-storage")))!).state
    .token;
  for (const type of ["incoming", "outgoing", "error"]) {
    await eventually(() =>
      requests.some((r) => r.url().endsWith(`/fe/account/stream/${type}`)),
    ).toBe(true);
    const request = requests.find((r) => r.url().endsWith(`/fe/account/stream/${type}`))!;
    expect(request.method()).toBe("GET");
    expect(await request.headerValue("accept")).toBe("text/event-stream");
    expect(await request.headerValue("authorization")).toBe(`Bearer ${token}`);
  }
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
