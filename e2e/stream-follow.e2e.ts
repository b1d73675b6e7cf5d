import type { Page } from "playwright-core";
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
