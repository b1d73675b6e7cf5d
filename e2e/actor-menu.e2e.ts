import type { Locator } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import {
  eventually,
  openActorMenu,
  readUserStorage,
  signIn,
  textOutsideTrees,
  openFromDrawer,
} from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#layout, signed in: the Open menu, its check mark, switching the current actor.

/** An actor's entry in the Open menu (a menuitem, or a menuitemradio carrying its check state). */
function actorItem(menu: Locator, name: string): Locator {
  return menu
    .getByRole("menuitemradio", { name, exact: true })
    .or(menu.getByRole("menuitem", { name, exact: true }));
}

test("the Open menu lists every actor by name with a check mark on the current one", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("menu_a");
  await api.createActor("menu_b");
  const { actors } = await api.info();
  await signIn(page, account);
  await eventually(async () => (await readUserStorage(page))?.currentActor ?? null).not.toBeNull();
  const current = (await readUserStorage(page))!.currentActor;

  const menu = await openActorMenu(page);
  const items = menu.locator("[role^=menuitem]");
  expect(await items.allInnerTexts().then((texts) => texts.map((t) => t.trim()))).toEqual([
    ...actors.map((actor) => actor.name),
    "Logout",
  ]);
  for (const actor of actors) {
    const item = actorItem(menu, actor.name);
    const checkMark = (await item.locator("svg").count()) > 0;
    expect(checkMark, actor.name).toBe(actor.id === current);
    // The check mark is also said to assistive technology when the item is a menuitemradio.
    if ((await item.getAttribute("role")) === "menuitemradio") {
      expect(await item.getAttribute("aria-checked"), actor.name).toBe(
        String(actor.id === current),
      );
    }
  }
  // The divider sits between the actors and Logout.
  const separatorBelowActors = await menu.evaluate((list) => {
    const children = [...list.querySelectorAll("[role^=menuitem], [role=separator], hr")];
    const separator = children.findIndex((child) => child.matches("[role=separator], hr"));
    return separator === children.length - 2;
  });
  expect(separatorBelowActors).toBe(true);
});

test("choosing another actor in the menu makes it current", async ({ page, account, corral }) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("switch_a");
  await api.createActor("switch_b");
  const { actors } = await api.info();
  await signIn(page, account);
  await eventually(async () => (await readUserStorage(page))?.currentActor ?? null).not.toBeNull();
  const current = (await readUserStorage(page))!.currentActor;
  const other = actors.find((actor) => actor.id !== current)!;

  let menu = await openActorMenu(page);
  await actorItem(menu, other.name).click();
  await eventually(async () => (await readUserStorage(page))?.currentActor).toBe(other.id);
  await menu.waitFor({ state: "hidden" });

  menu = await openActorMenu(page);
  expect(await actorItem(menu, other.name).locator("svg").count()).toBe(1);
  await page.keyboard.press("Escape");
  await openFromDrawer(page, "Perform");
  await eventually(() => textOutsideTrees(page)).toContain(other.id);
});
