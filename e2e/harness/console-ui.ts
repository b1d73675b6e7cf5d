import type { Locator, Page, Request } from "playwright-core";
import { expect } from "vitest";
import type { Account } from "./fixtures.ts";

// How a person drives the console: by the labels the spec names. Nothing here reaches into React.

const WAIT_MS = 10_000;

/** Polls until the check holds (Vitest's expect.poll, with a browser-sized timeout). */
export function eventually<T>(check: () => T | Promise<T>, timeout = WAIT_MS) {
  return expect.poll(check, { timeout, interval: 100 });
}

/**
 * Resolves once the account's streams have answered: incoming, outgoing and error, or (in front
 * of cattle_grid) combined and error. A console that has just loaded reads only what happens
 * after it connects, so tests cause events only after this.
 */
export function streamsConnected(page: Page): Promise<unknown> {
  const answered = new Set<string>();
  return new Promise<void>((resolve, reject) => {
    const done = () =>
      answered.has("error") &&
      (answered.has("combined") || (answered.has("incoming") && answered.has("outgoing")));
    const onResponse = (response: { url(): string }) => {
      const match = /\/fe\/account\/stream\/([a-z]+)$/.exec(response.url());
      if (!match) return;
      answered.add(match[1]!);
      if (!done()) return;
      clearTimeout(timer);
      page.off("response", onResponse);
      resolve();
    };
    const timer = setTimeout(() => {
      page.off("response", onResponse);
      reject(new Error(`the streams did not answer within 15 s (answered: ${[...answered]})`));
    }, 15_000);
    page.on("response", onResponse);
  });
}

/** Signs in through the form and waits until the Info page shows the account and streams run. */
export async function signIn(
  page: Page,
  account: Account,
  options = { awaitStreams: true },
): Promise<void> {
  await page.goto("/signin");
  const connected = options.awaitStreams ? streamsConnected(page) : null;
  connected?.catch(() => {}); // awaited below; a failure before then must not go unhandled
  await page.getByRole("textbox", { name: "Name" }).fill(account.name);
  await page.getByLabel("Password").fill(account.password);
  await signInForm(page).getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  // The Info page has shown the account (and so stored its actors) once the name is in the tree.
  await page.locator(".json-tree").getByText(`"${account.name}"`).first().waitFor();
  await connected;
}

/** The sign-in card's form (the top bar has a "Sign In" button of its own when signed out). */
export function signInForm(page: Page): Locator {
  return page.getByRole("form", { name: "Sign In" });
}

export type UserStorage = {
  token: string | null;
  actors: { id: string; name: string }[];
  methodInformations: { routing_key: string }[];
  currentActor: string | null;
};

/** The persisted user state under "user-storage" (zustand's persist wraps it in {state, version}). */
export async function readUserStorage(page: Page): Promise<UserStorage | null> {
  const raw = await page.evaluate(() => localStorage.getItem("user-storage"));
  if (raw === null) return null;
  const parsed = JSON.parse(raw) as { state?: UserStorage } & UserStorage;
  return parsed.state ?? parsed;
}

/** The permanent left drawer. */
export function drawer(page: Page): Locator {
  return page.locator(".MuiDrawer-paper");
}

/** The top bar beside the drawer. */
export function topBar(page: Page): Locator {
  return page.getByRole("banner");
}

/** A drawer entry by its label; stream entries carry a badge, so the name only starts with it. */
export function drawerEntry(page: Page, label: string): Locator {
  // "Incoming0" has no word boundary before the badge, hence the lookahead.
  const name = new RegExp(`^${label}(?![a-z])`);
  return drawer(page).getByRole("link", { name }).or(drawer(page).getByRole("button", { name }));
}

/** Goes to a screen the way a person does, through the drawer (the page and its streams stay). */
export async function openFromDrawer(page: Page, label: string): Promise<void> {
  await drawerEntry(page, label).click();
  const path =
    { Info: "/", Lookup: "/lookup", Perform: "/perform" }[label] ??
    `/stream/${label.toLowerCase()}`;
  await page.waitForURL((url) => url.pathname === path);
}

/** The number on a stream entry's badge (an empty or hidden badge reads as 0). */
export async function badgeCount(
  page: Page,
  label: "Incoming" | "Outgoing" | "Error",
): Promise<number> {
  const text = (await drawerEntry(page, label).textContent()) ?? "";
  const match = /(\d+)\+?\s*$/.exec(text.replace(label, ""));
  return match ? Number(match[1]) : 0;
}

/** The top bar's Sign In button, shown while signed out. */
export function signInControl(page: Page): Locator {
  return topBar(page).getByRole("button", { name: "Sign In" });
}

export async function openActorMenu(page: Page): Promise<Locator> {
  await topBar(page).getByRole("button", { name: "Open" }).click();
  const menu = page.getByRole("menu");
  await menu.waitFor();
  return menu;
}

/** Chooses an option of a MUI select (a combobox that opens a listbox). */
export async function chooseOption(page: Page, selectName: string, option: string): Promise<void> {
  await page.getByRole("combobox", { name: selectName }).click();
  await page.getByRole("listbox").getByRole("option", { name: option, exact: true }).click();
  await page.getByRole("listbox").waitFor({ state: "hidden" });
}

/** The options a MUI select offers, read by opening it and closing it again. */
export async function listOptions(page: Page, selectName: string): Promise<string[]> {
  await page.getByRole("combobox", { name: selectName }).click();
  const listbox = page.getByRole("listbox");
  await listbox.waitFor();
  const names = await listbox.getByRole("option").allTextContents();
  await page.keyboard.press("Escape");
  await listbox.waitFor({ state: "hidden" });
  return names.map((name) => name.trim());
}

/** Records the /fe requests the page makes, with their headers and bodies. */
export function recordFeRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/fe/")) requests.push(request);
  });
  return requests;
}

/**
 * The lookups a person asked for, leaving out the console's own lookup of each of the account's
 * actors as itself (how it learns their handles: the account info gives only display names).
 */
export function userLookups(requests: Request[]): Request[] {
  return requests.filter((request) => {
    if (!new URL(request.url()).pathname.endsWith("/fe/actor/lookup")) return false;
    const body = request.postDataJSON() as { uri?: string; actorId?: string };
    return body.uri !== body.actorId;
  });
}

/** The main area's text without its JSON trees: what the screen itself says. */
export function textOutsideTrees(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const tree of copy.querySelectorAll(".json-tree")) tree.remove();
    return copy.textContent ?? "";
  });
}

/** The visible text of the page body, for "nothing else appeared" comparisons. */
export function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

/** Whether the control is disabled to a person: natively, or through aria-disabled. */
export async function isDisabled(locator: Locator): Promise<boolean> {
  if (await locator.isDisabled()) return true;
  return (await locator.getAttribute("aria-disabled")) === "true";
}
