import type { Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import { eventually, openFromDrawer } from "./harness/console-ui.ts";
import { messageTrees, signInWithTwoActors, type Setup } from "./harness/stream-events.ts";

// Pause holds the list under a search too (docs: e2e/README.md maps this file).

const search = (page: Page) => page.getByRole("searchbox", { name: "Search messages" });
const answered = (page: Page) =>
  eventually(() => page.getByTestId("history-begins").textContent()).toBe(
    "Matches among everything the server keeps",
  );

/** Two animation frames: what an answer changes has been rendered. */
const nextFrames = (page: Page) =>
  page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );

async function cause({ api, sender }: Setup, names: string[]) {
  for (const name of names) await api.trigger(name, { actor: sender });
}

test("paused, a search typed before the pause or again while paused lists nothing new until N new", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Error");
  await cause(setup, ["zebra_0", "plain_0"]);
  await eventually(() => messageTrees(page).count()).toBe(2);

  // Typed just before pausing: the server's answer comes after two matching arrivals.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/fe/account/events/error?*", async (route) => {
    await held;
    await route.continue();
  });
  await search(page).fill("zebra");
  await page.getByRole("button", { name: "Pause" }).click();
  await cause(setup, ["zebra_1", "zebra_2"]);
  await page.getByRole("button", { name: "2 new" }).waitFor();
  release();
  await answered(page);
  await nextFrames(page);
  expect(await messageTrees(page).count()).toBe(1);
  expect(await page.getByRole("button", { name: "2 new" }).count()).toBe(1);

  // Typed again while paused: answered by the server, which holds the two new ones.
  await search(page).fill("");
  const asked = page.waitForResponse((response) =>
    /\/events\/error\?.*q=zebra/.test(response.url()),
  );
  await search(page).fill("zebra");
  await asked;
  await answered(page);
  await nextFrames(page);
  expect(await messageTrees(page).count()).toBe(1);
  expect(await page.getByRole("button", { name: "2 new" }).count()).toBe(1);

  await page.getByRole("button", { name: "2 new" }).click();
  await eventually(() => messageTrees(page).count()).toBe(3);
});
