import type { Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import {
  badgeCount,
  eventually,
  isDisabled,
  openFromDrawer,
  signIn,
} from "./harness/console-ui.ts";
import { buildActivity, signInApi, type FeApi } from "./harness/fe-api.ts";
import { messageTrees } from "./harness/stream-events.ts";

// Wave 3 "Streams remember what the server remembers": every event here happens before the
// browser signs in, so all the browser can show of it comes from the server's retained log
// (GET /fe/account/events/{stream}, docs/server-guide.md#history).

type Retained = { id: number; receivedAt: string; event: Record<string, unknown> };

/** The retained events of a stream as the account API gives them, newest first. */
async function retained(serverUrl: string, api: FeApi, stream: string): Promise<Retained[]> {
  const response = await fetch(`${serverUrl}/fe/account/events/${stream}?limit=500`, {
    headers: { Authorization: `Bearer ${api.token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: Retained[] }).events;
}

async function causeErrors(api: FeApi, actor: string, names: string[]): Promise<void> {
  for (const name of names) await api.trigger(name, { actor });
}

function shownCount(page: Page) {
  return page.getByTestId("shown-count").textContent();
}

/** A datetime-local value (local time, to the millisecond) for an ISO time. */
function localInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
  );
}

test("a new browser shows the newest retained messages, searches the older ones on the server, and Load earlier reaches the oldest", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = (await api.createActor(`h_${account.name}`)).id;
  // 105 errors: two with a word no later one has, then more than one page (100) after them.
  await causeErrors(api, actor, ["zebra_method_0", "zebra_method_1"]);
  await causeErrors(
    api,
    actor,
    Array.from({ length: 103 }, (_, i) => `plain_method_${i}`),
  );

  await signIn(page, account);
  await openFromDrawer(page, "Error");
  // The newest page at once, not "Nothing to display"; the list says where it begins.
  await eventually(() => badgeCount(page, "Error")).toBe(100);
  await expect.poll(() => page.getByText("Nothing to display").count()).toBe(0);
  await eventually(() => messageTrees(page).count()).toBeGreaterThan(0);
  const begins = page.getByTestId("history-begins");
  await eventually(() => begins.textContent()).toMatch(/^Since \d\d:\d\d:\d\d$/);
  expect(await page.locator("main").textContent()).not.toContain("zebra_method");

  // A word only in messages from before the browser connected, counted by the server.
  const search = page.getByRole("searchbox", { name: "Search messages" });
  await search.fill("zebra_method");
  await eventually(() => shownCount(page)).toBe("2 of 105");
  await eventually(() => messageTrees(page).count()).toBe(2);
  expect(await messageTrees(page).first().textContent()).toContain("zebra_method_0");
  await search.fill("");
  await eventually(() => shownCount(page)).toBe("100 of 100");

  // "Load earlier" pages back to the oldest retained message, and says so.
  await page.getByRole("button", { name: "Load earlier" }).click();
  await eventually(() => badgeCount(page, "Error")).toBe(105);
  await eventually(() => begins.textContent()).toBe("Everything the server keeps");
  expect(await isDisabled(page.getByRole("button", { name: "Load earlier" }))).toBe(true);
  await eventually(() => messageTrees(page).first().textContent()).toContain("zebra_method_0");
});

test("From and To narrow the list to the server's events received in that time", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = (await api.createActor(`t_${account.name}`)).id;
  await causeErrors(api, actor, ["early_method_0", "early_method_1"]);
  await causeErrors(api, actor, ["middle_method_0", "middle_method_1"]);
  await causeErrors(api, actor, ["late_method_0"]);
  const events = await retained(corral.url, api, "error");
  const middle = events.filter((e) => JSON.stringify(e.event).includes("middle_method"));
  expect(middle).toHaveLength(2);

  await signIn(page, account);
  await openFromDrawer(page, "Error");
  await eventually(() => shownCount(page)).toBe("5 of 5");
  await page.getByLabel("From", { exact: true }).fill(localInput(middle.at(-1)!.receivedAt));
  await page.getByLabel("To", { exact: true }).fill(localInput(middle[0]!.receivedAt));
  await eventually(() => shownCount(page)).toBe("2 of 5");
  const text = await page.locator("main").textContent();
  expect(text).toContain("middle_method_0");
  expect(text).toContain("middle_method_1");
  expect(text).not.toContain("early_method");
  expect(text).not.toContain("late_method");
});

test("Perform's link to an outgoing message from before this browser connected opens that message", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const sender = (await api.createActor(`s_${account.name}`)).id;
  const receiver = (await api.createActor(`r_${account.name}`)).id;
  const activity = buildActivity("Like", sender, receiver);
  await api.trigger("send_message", { actor: sender, data: activity });
  const [sent] = await retained(corral.url, api, "outgoing");
  const triggerId = sent!.event.trigger_id as string;
  expect(typeof triggerId).toBe("string");
  // A full page (100) of later outgoing messages, addressed to nobody: a new browser's stream
  // page then starts after the linked one.
  const later = Array.from({ length: 100 }, () => {
    const { to: _to, ...unaddressed } = buildActivity("Like", sender, receiver);
    return unaddressed;
  });
  let next = 0;
  const worker = async () => {
    while (next < later.length)
      await api.trigger("send_message", { actor: sender, data: later[next++] });
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  await eventually(async () => (await retained(corral.url, api, "outgoing")).length).toBe(101);

  await signIn(page, account);
  await eventually(() => badgeCount(page, "Outgoing")).toBe(100);
  await page.goto(new URL(`/perform?call=${encodeURIComponent(triggerId)}`, page.url()).href);
  const link = page
    .getByRole("region", { name: "Result" })
    .getByRole("link", { name: `Outgoing message ${sent!.id}` });
  await link.click();
  await page.waitForURL((url) => url.pathname === "/stream/outgoing");
  const marked = page.locator('[data-testid="stream-message"][aria-current="true"]');
  await marked.waitFor();
  expect(await marked.textContent()).toContain(activity.id);
  expect(await page.locator("main").textContent()).not.toContain(
    "is not among the messages listed here: it arrived",
  );
  // The browser still holds only the newest page: the message was asked for by its id.
  await eventually(() => badgeCount(page, "Outgoing")).toBe(100);
});
