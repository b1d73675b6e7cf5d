import type { Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import {
  chooseOption,
  eventually,
  openActorMenu,
  openFromDrawer,
  signIn,
  topBar,
} from "./harness/console-ui.ts";
import { buildCreateNote, signInApi } from "./harness/fe-api.ts";

// Knowing who you are and what you do (docs/console-guide.md#layout, #perform, #info), and the summary
// line's names (issue 25 items 7, 11, 12, 15), against the real server.

const host = (url: string) => new URL(url).host;

async function menuNames(page: Page): Promise<string[]> {
  const menu = await openActorMenu(page);
  const names = await menu.getByRole("menuitemradio").allInnerTexts();
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "hidden" });
  return names.map((name) => name.trim());
}

test("the top bar shows the current actor as @handle@host beside Open, and follows the menu", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor(`a_${account.name}`, "WB Alpha");
  await api.createActor(`b_${account.name}`, "WB Beta");
  await signIn(page, account);
  const label = topBar(page).getByTestId("top-bar-actor");
  await eventually(() => label.innerText()).toBe(`@a_${account.name}@${host(corral.url)}`);
  const menu = await openActorMenu(page);
  await menu.getByRole("menuitemradio", { name: "WB Beta" }).click();
  await eventually(() => label.innerText()).toBe(`@b_${account.name}@${host(corral.url)}`);
});

test("summary lines name a local sender @preferredUsername@host, not by display name", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const sender = (await api.createActor(`s_${account.name}`, "WB Alpha")).id;
  const receiver = (await api.createActor(`r_${account.name}`, "WB Beta")).id;
  await signIn(page, account);
  await openFromDrawer(page, "Incoming");
  await api.trigger("send_message", {
    actor: sender,
    data: buildCreateNote(sender, receiver, "Hello Bob, this is a note"),
  });
  const summary = page.getByTestId("message-summary").first();
  await eventually(() => summary.innerText()).toMatch(
    new RegExp(
      `Create\\s+Note "Hello Bob, this is a note"\\s+@s_${account.name}@${host(corral.url)}`,
    ),
  );
  expect(await summary.innerText()).not.toContain("WB Alpha");
});

test("delete_actor asks first, naming the actor; afterwards it leaves Open and Acting as", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const keeper = await api.createActor(`k_${account.name}`, "Keeper");
  const doomed = await api.createActor(`d_${account.name}`, "Doomed");
  await signIn(page, account);
  const menu = await openActorMenu(page);
  await menu.getByRole("menuitemradio", { name: "Doomed" }).click();
  await openFromDrawer(page, "Perform");
  await eventually(() => page.getByTestId("current-actor").innerText()).toContain(doomed.id);
  await chooseOption(page, "Method to perform", "delete_actor");
  await page.getByRole("button", { name: "Perform" }).click();

  const handle = `@d_${account.name}@${host(corral.url)}`;
  const dialog = page.getByRole("dialog", { name: `Delete ${handle}?` });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "hidden" });
  expect(await menuNames(page)).toEqual(["Keeper", "Doomed"]);

  await page.getByRole("button", { name: "Perform" }).click();
  await dialog.getByRole("button", { name: "Delete actor" }).click();
  await eventually(() => page.getByTestId("current-actor").innerText()).toContain(keeper.id);
  expect(await menuNames(page)).toEqual(["Keeper"]);
  // The server agrees once the call has run: a reload does not bring it back.
  await eventually(async () => (await api.info()).actors.map((actor) => actor.id)).toEqual([
    keeper.id,
  ]);
  await page.reload();
  await page.getByTestId("current-actor").waitFor();
  expect(await menuNames(page)).toEqual(["Keeper"]);
});

test("Create Actor says a taken or invalid handle by the handle field, without a modal", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor(`t_${account.name}`);
  await signIn(page, account);
  const handle = page.getByRole("textbox", { name: "handle" });
  await handle.fill(`t_${account.name}`);
  await page.getByRole("button", { name: "Create Actor" }).click();
  await eventually(() => handle.getAttribute("aria-invalid")).toBe("true");
  const description = () =>
    handle.evaluate((field) =>
      field
        .getAttribute("aria-describedby")!
        .split(" ")
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" "),
    );
  expect(await description()).toMatch(new RegExp(`"t_${account.name}" already taken`));
  expect(await page.getByRole("dialog").count()).toBe(0);

  await handle.fill("not a handle!");
  await page.getByRole("button", { name: "Create Actor" }).click();
  await eventually(() => handle.getAttribute("aria-invalid")).toBe("true");
  expect(await description()).not.toMatch(/already taken/);
  expect((await description()).length).toBeGreaterThan(5);
  expect(await page.getByRole("dialog").count()).toBe(0);
});
