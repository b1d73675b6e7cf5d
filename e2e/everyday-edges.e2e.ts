import type { Page } from "playwright-core";
import { squeezedTexts } from "./harness/squeezed-text.ts";
import { expect, test } from "./harness/fixtures.ts";
import {
  drawer,
  drawerEntry,
  eventually,
  readUserStorage,
  signIn,
  signInForm,
  streamsConnected,
  topBar,
} from "./harness/console-ui.ts";
import { buildActivity, signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#layout and #sign-in: sign-in reasons, signed-out pages, the no-base-URL hint,
// waiting shown, dark mode, narrow screens.

async function submitSignIn(page: Page, name: string, password: string) {
  await page.getByRole("textbox", { name: "Name" }).fill(name);
  await page.getByLabel("Password").fill(password);
  await signInForm(page).getByRole("button", { name: "Sign In" }).click();
}

test("after too many failures the 429's reason and when to retry show, even for the right password", async ({
  page,
  account,
  corral,
}) => {
  for (let attempt = 0; attempt < 5; attempt++) {
    await fetch(`${corral.url}/fe/signin`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: account.name, password: "wrong" }),
    });
  }
  await page.goto("/signin");
  await submitSignIn(page, account.name, account.password);
  const alert = signInForm(page).getByRole("alert");
  await alert.waitFor();
  expect(await alert.textContent()).toMatch(
    /^Too many failed sign-ins; try again in \d+ s \(after \d{1,2}:\d{2}:\d{2}/,
  );
  expect(new URL(page.url()).pathname).toBe("/signin");
});

test("sign-in shows that it waits for the server", async ({ page, account }) => {
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route("**/fe/signin", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/signin");
  await submitSignIn(page, account.name, account.password);
  await page.getByRole("progressbar", { name: "Signing in" }).waitFor();
  expect(await signInForm(page).getByRole("button", { name: "Sign In" }).isDisabled()).toBe(true);
  release();
  await page.waitForURL((url) => url.pathname === "/");
});

for (const path of ["/lookup", "/perform"]) {
  test(`signed out, ${path} says Please login and links to Sign In`, async ({ page }) => {
    await page.goto(path);
    await page.getByText("Please login").waitFor();
    expect(await page.getByText("Loading...").count()).toBe(0);
    await page.locator("main").getByRole("link", { name: "Sign In" }).click();
    await page.waitForURL((url) => url.pathname === "/signin");
  });
}

test("an account without base URLs is told on Info why it cannot create actors", async ({
  page,
  corral,
}) => {
  const account = { name: `nobase${process.pid % 10_000}`, password: "nobase-password" };
  await corral.account("new", account.name, account.password);
  await signIn(page, account);
  const hint = page.getByText(/This account cannot create actors/);
  await hint.waitFor();
  expect(await hint.textContent()).toMatch(/--admin.*--permission HOST/);
});

test("creating an actor shows that it waits for the server", async ({ page, account }) => {
  await signIn(page, account);
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route("**/fe/account/create", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("textbox", { name: "handle" }).fill("patient");
  await page.getByRole("button", { name: "Create Actor" }).click();
  await page.getByRole("progressbar", { name: "Creating actor" }).waitFor();
  release();
  await page.getByRole("dialog").waitFor();
});

function bodyBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

test("dark mode follows prefers-color-scheme; 'Toggle dark mode' overrides it and is remembered", async ({
  page,
  account,
}) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, account);
  expect(await bodyBackground(page)).toBe("rgb(18, 18, 18)");
  await topBar(page).getByRole("button", { name: "Toggle dark mode" }).click();
  await eventually(() => bodyBackground(page)).toBe("rgb(255, 255, 255)");
  await page.reload();
  await page.locator(".json-tree").first().waitFor();
  expect(await bodyBackground(page)).toBe("rgb(255, 255, 255)");
  expect(await page.evaluate(() => localStorage.getItem("corral-color-mode"))).toBe("light");
  expect(Object.keys((await readUserStorage(page))!).sort()).toEqual([
    "actors",
    "currentActor",
    "methodInformations",
    "token",
  ]);
  await page.emulateMedia({ colorScheme: "light" });
  await topBar(page).getByRole("button", { name: "Toggle dark mode" }).click();
  await eventually(() => bodyBackground(page)).toBe("rgb(18, 18, 18)");
});

test("below 900 px the drawer is temporary and opens from the top bar's Menu", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("menu_user");
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, account);
  expect(await drawer(page).isVisible()).toBe(false);
  await topBar(page).getByRole("button", { name: "Menu" }).click();
  await drawerEntry(page, "Lookup").waitFor();
  await drawerEntry(page, "Lookup").click();
  await page.waitForURL((url) => url.pathname === "/lookup");
  await drawer(page).waitFor({ state: "hidden" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await drawer(page).waitFor();
  expect(await topBar(page).getByRole("button", { name: "Menu" }).count()).toBe(0);
});

test("at 390 px every page stays readable: no text one character per line", async ({
  page,
  account,
  corral,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor("narrow_reader");
  await page.goto("/signin");
  await signInForm(page).waitFor();
  const pages: Record<string, string[]> = { "/signin": await squeezedTexts(page) };
  // Pages wider than the screen, by path (none expected).
  const widths: Record<string, number> = {};
  const measureWidth = async () => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) widths[new URL(page.url()).pathname] = width;
  };
  await measureWidth();
  await page.screenshot({ path: "/tmp/corral-390-signin.png", fullPage: true });
  await signIn(page, account);
  pages["/"] = await squeezedTexts(page);
  await measureWidth();
  await page.screenshot({ path: "/tmp/corral-390-info.png", fullPage: true });
  await page.goto(`/lookup?uri=${encodeURIComponent(actor.id)}`);
  await page.getByText('"narrow_reader"').first().waitFor();
  pages["/lookup"] = await squeezedTexts(page);
  await measureWidth();
  await page.screenshot({ path: "/tmp/corral-390-lookup.png", fullPage: true });
  await page.goto("/perform");
  await page.getByRole("combobox", { name: "Method to perform" }).waitFor();
  pages["/perform"] = await squeezedTexts(page);
  await measureWidth();
  await page.screenshot({ path: "/tmp/corral-390-perform.png", fullPage: true });
  const connected = streamsConnected(page);
  await page.goto("/stream/error");
  await connected;
  await api.trigger("no_such_method", { actor: actor.id });
  await page.locator(".json-tree").first().waitFor();
  pages["/stream/error"] = await squeezedTexts(page);
  await measureWidth();
  await page.screenshot({ path: "/tmp/corral-390-stream.png", fullPage: true });
  // Incoming (through the signed inbox) and All, with messages of each stream present.
  const receiver = await api.createActor("narrow_receiver");
  await api.trigger("send_message", {
    actor: actor.id,
    data: buildActivity("Create", actor.id, receiver.id),
  });
  await page.goto("/stream/incoming");
  await page.locator(".json-tree").first().waitFor({ timeout: 20_000 });
  pages["/stream/incoming"] = await squeezedTexts(page);
  await measureWidth();
  const messageWidths: Record<string, number> = { "/stream/incoming": await messageWidth(page) };
  await page.screenshot({ path: "/tmp/corral-390-stream-incoming.png", fullPage: true });
  await page.goto("/stream/all");
  await page.locator(".json-tree").nth(2).waitFor();
  pages["/stream/all"] = await squeezedTexts(page);
  await measureWidth();
  messageWidths["/stream/all"] = await messageWidth(page);
  await page.screenshot({ path: "/tmp/corral-390-stream-all.png", fullPage: true });
  expect(pages).toEqual({
    "/signin": [],
    "/": [],
    "/lookup": [],
    "/perform": [],
    "/stream/error": [],
    "/stream/incoming": [],
    "/stream/all": [],
  });
  expect(widths).toEqual({});
  // The messages take the screen's width, the panel above them (beside them they had ~100 px).
  expect(messageWidths).toEqual({ "/stream/incoming": 358, "/stream/all": 358 });
  const panel = page
    .getByRole("complementary")
    .filter({ has: page.getByRole("button", { name: "Reset" }) });
  const message = page.getByTestId("stream-message").first();
  expect((await panel.boundingBox())!.y).toBeLessThan((await message.boundingBox())!.y);
});

/** The width of the first message card, in CSS pixels. */
function messageWidth(page: Page): Promise<number> {
  return page
    .getByTestId("stream-message")
    .first()
    .evaluate((card) => Math.round(card.getBoundingClientRect().width));
}
