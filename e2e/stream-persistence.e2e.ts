import { expect, test } from "./harness/fixtures.ts";
import {
  badgeCount,
  eventually,
  openFromDrawer,
  readUserStorage,
  recordFeRequests,
} from "./harness/console-ui.ts";
import {
  causeErrors,
  messageTrees,
  reloadAndReconnect,
  signInWithTwoActors,
} from "./harness/stream-events.ts";

// docs/console-guide.md#what-the-browser-keeps: message streams persisted, each under its own key; and
// the stream call's headers (docs/api.md#streams-and-history).

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
  // The stream page's code loads when opened: wait for its list, then check nothing doubled.
  await eventually(() => messageTrees(page).count()).toBe(2);
  await page.waitForTimeout(500);
  expect(await messageTrees(page).count()).toBe(2);
});

test("each stream is requested as text/event-stream with the bearer header", async ({
  page,
  account,
  corral,
}) => {
  const requests = recordFeRequests(page);
  await signInWithTwoActors(page, corral, account);
  const token = (await readUserStorage(page))!.token;
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
