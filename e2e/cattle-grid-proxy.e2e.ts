import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startCattleGrid, type CattleGrid } from "../test-peers/cattle-grid.ts";
import { launchChromium } from "./harness/chromium.ts";
import {
  badgeCount,
  chooseOption,
  drawerEntry,
  eventually,
  openActorMenu,
  openFromDrawer,
  readUserStorage,
  signIn,
  signInControl,
  signInForm,
  streamsConnected,
} from "./harness/console-ui.ts";
import { startCorral, type Corral } from "./harness/corral-server.ts";
import { buildCreateNote, signInApi, type FeApi } from "./harness/fe-api.ts";

// Issue 26: the console in proxy mode (`corral serve --upstream`) in front of the real
// cattle_grid 0.5.22 behind its nginx, in Chromium, with real deliveries between two of its
// accounts: what console.md asks of the seed, against the server operators run.

let cattleGrid: CattleGrid;
let proxy: Corral;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const alice = { name: "alice", password: "alice-password" };
const bob = { name: "bob", password: "bob-password" };
let aliceApi: FeApi;
let bobApi: FeApi;
const search = (page: Page) => page.getByRole("searchbox", { name: "Search messages" });
const shownCount = (page: Page) => page.getByTestId("shown-count").innerText();
let aliceActor: { id: string };
let bobActor: { id: string };

beforeAll(async () => {
  [cattleGrid, browser] = await Promise.all([startCattleGrid(), launchChromium()]);
  proxy = await startCorral({ upstream: cattleGrid.origin });
  await cattleGrid.createAccount(alice.name, alice.password);
  await cattleGrid.createAccount(bob.name, bob.password);
  [aliceApi, bobApi] = await Promise.all([
    signInApi(cattleGrid.origin, alice.name, alice.password),
    signInApi(cattleGrid.origin, bob.name, bob.password),
  ]);
  [aliceActor, bobActor] = await Promise.all([
    aliceApi.createActor("alice"),
    bobApi.createActor("bob"),
  ]);
  context = await browser.newContext({
    baseURL: proxy.url,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await proxy?.dispose();
  await cattleGrid?.stop();
});

describe("the console in front of the real cattle_grid", () => {
  it("signs in and shows the account, its actor and cattle_grid as the backend", async () => {
    await signIn(page, bob);
    await page.getByText(`"${bobActor.id}"`).first().waitFor();
    await page.getByText('"cattle_grid"').first().waitFor();
    await page.getByText('"0.5.22"').first().waitFor();
  });

  it("creates an actor, and says so when the handle is taken", async () => {
    await chooseOption(page, "Base Url", cattleGrid.origin);
    await page.getByRole("textbox", { name: "handle" }).fill("bob_two");
    await page.getByRole("button", { name: "Create Actor" }).click();
    await page.getByRole("dialog").getByText(`"${cattleGrid.origin}/inbox/`).first().waitFor();
    await eventually(async () => (await bobApi.info()).actors.length).toBe(2);
    await page.keyboard.press("Escape");
    await page.getByRole("textbox", { name: "handle" }).fill("bob_two");
    await page.getByRole("button", { name: "Create Actor" }).click();
    await page.getByText("Duplicate identifier").first().waitFor();
    await page.keyboard.press("Escape");
  });

  it("shows a Note from another cattle_grid account live on Incoming, named by its type", async () => {
    await openFromDrawer(page, "Incoming");
    const before = await badgeCount(page, "Incoming");
    const note = buildCreateNote(aliceActor.id, bobActor.id, "hello through cattle_grid");
    await aliceApi.trigger("send_message", { actor: aliceActor.id, data: note });
    await page.getByText('"hello through cattle_grid"').first().waitFor({ timeout: 20_000 });
    await eventually(() => badgeCount(page, "Incoming")).toBe(before + 1);
    await expect
      .poll(() => page.getByText(/Create/).count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    // It keeps no history to page through or search: the page says so instead of offering it.
    await page
      .getByText(/The server keeps no history of this stream that the console can page/)
      .waitFor();
    expect(await page.getByRole("button", { name: "Load earlier" }).count()).toBe(0);
    await page.getByRole("searchbox", { name: "Search messages" }).fill("hello through");
    await page.getByText(/The server offers no search of what it keeps/).waitFor();
    await eventually(() => page.getByTestId("shown-count").textContent()).toBe(
      `1 of ${before + 1}`,
    );
    await page.getByRole("searchbox", { name: "Search messages" }).fill("");
  });

  it("looks up an actor signed as the current actor", async () => {
    // cattle_grid's lookup gives up after about a second and answers {} (seen when this machine
    // is busy): three visits, each a lookup of its own, before the test gives up.
    const found = page.getByText(`"${aliceActor.id}"`).first();
    for (let visit = 1; visit <= 3; visit++) {
      await page.goto(`/lookup?uri=${encodeURIComponent(aliceActor.id)}`);
      const shown = await found
        .waitFor({ timeout: 8_000 })
        .then(() => true)
        .catch(() => false);
      if (shown || visit === 3) break;
    }
    await found.waitFor({ timeout: 1_000 });
  });

  it("shows an error event for a method cattle_grid refuses", async () => {
    await openFromDrawer(page, "Error");
    const before = await badgeCount(page, "Error");
    // No data: cattle_grid answers 202, then its validation refuses the body on the error stream.
    await bobApi.trigger("send_message", { actor: bobActor.id });
    await eventually(() => badgeCount(page, "Error"), 20_000).toBeGreaterThan(before);
  });

  it("reads Incoming and Outgoing from cattle_grid's one combined stream; a Perform shows on Outgoing and on All, once, labelled", async () => {
    const streams: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith("/fe/account/stream/"))
        streams.push(path.slice("/fe/account/stream/".length));
    });
    await page.reload();
    await streamsConnected(page);
    expect([...new Set(streams)].sort()).toEqual(["combined", "error"]);

    await openFromDrawer(page, "Perform");
    await eventually(() => page.getByTestId("current-actor").innerText()).toContain(bobActor.id);
    await chooseOption(page, "Method to perform", "send_message");
    const outgoingBefore = await badgeCount(page, "Outgoing");
    const note = buildCreateNote(bobActor.id, aliceActor.id, "performed through cattle_grid");
    await page.getByRole("textbox", { name: "data" }).fill(JSON.stringify({ data: note }));
    await page.getByRole("heading", { name: "Resulting output" }).waitFor();
    await page.getByRole("button", { name: "Perform" }).click();
    // cattle_grid answers 202 and reports nothing more about a call: the Result says just that.
    await page
      .getByRole("region", { name: "Result" })
      .getByText(/send_message: handed over \(HTTP 202\)/)
      .waitFor();
    await page.getByRole("list", { name: "History" }).getByRole("listitem").first().waitFor();
    await eventually(() => badgeCount(page, "Outgoing"), 20_000).toBe(outgoingBefore + 1);

    await openFromDrawer(page, "All");
    await search(page).fill("performed through cattle_grid");
    await eventually(() => shownCount(page)).toMatch(/^1 of \d+$/);
    const label = page.getByTestId("message-summary").first().locator(".MuiChip-label");
    expect(await label.textContent()).toBe("Outgoing");
    await search(page).fill("hello through cattle_grid");
    await eventually(() => shownCount(page)).toMatch(/^1 of \d+$/);
    expect(await label.textContent()).toBe("Incoming");
    await search(page).fill("");
  });

  it("on a stream: type filter, Pause and N new, Compact, Newest first, Export, Open in Perform and Reset", async () => {
    await openFromDrawer(page, "Incoming");
    const send = (text: string) =>
      aliceApi.trigger("send_message", {
        actor: aliceActor.id,
        data: buildCreateNote(aliceActor.id, bobActor.id, text),
      });
    const held = await badgeCount(page, "Incoming");
    await chooseOption(page, "Select Type of Activity", "Create");
    await page.getByRole("button", { name: "Pause" }).click();
    await send("sent while paused");
    await eventually(() => badgeCount(page, "Incoming"), 20_000).toBe(held + 1);
    await page.getByRole("button", { name: "1 new" }).click();
    await page.getByText('"sent while paused"').first().waitFor();
    await page.getByRole("button", { name: "Pause" }).waitFor();

    await page.getByRole("switch", { name: "Newest first" }).check();
    await page.getByRole("switch", { name: "Compact" }).check();
    const firstLine = page.getByTestId("stream-message").first().locator(".stream-message-toggle");
    await eventually(() => firstLine.innerText()).toContain("sent while paused");
    await page.getByRole("switch", { name: "Compact" }).uncheck();
    await page.getByRole("switch", { name: "Newest first" }).uncheck();

    await search(page).fill("sent while paused");
    await eventually(() => shownCount(page)).toBe(`1 of ${held + 1}`);
    await page.getByRole("button", { name: "Export" }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: "NDJSON", exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^corral-incoming-\d{8}-\d{6}\.ndjson$/);
    const lines = (await readFile((await download.path())!, "utf8")).trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("sent while paused");

    await page
      .getByTestId("stream-message")
      .first()
      .getByRole("button", { name: "Open in Perform" })
      .click();
    await page.waitForURL((url) => url.pathname === "/perform");
    const data = JSON.parse(await page.getByRole("textbox", { name: "data" }).inputValue()) as {
      data: { object: { content: string } };
    };
    expect(data.data.object.content).toBe("sent while paused");

    await openFromDrawer(page, "Incoming");
    await search(page).fill("");
    await page.getByRole("button", { name: "Reset" }).click();
    await page.getByText("Nothing to display").waitFor();
    expect(await badgeCount(page, "Incoming")).toBe(0);
  });

  it("looks up by Enter, keeps Recent lookups with a curl line, and says in a sentence when nothing answered", async () => {
    await page.goto("/lookup");
    const uri = page.getByRole("textbox", { name: "URI" });
    await uri.fill("http://127.0.0.1:9/nobody-here");
    await uri.press("Enter");
    await page.getByText(/nothing answered at this URI/).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("curl-example").textContent()).toContain(
      "http://127.0.0.1:9/nobody-here",
    );
    await page
      .getByRole("region", { name: "Recent lookups" })
      .getByText("http://127.0.0.1:9/nobody-here")
      .first()
      .waitFor();
  });

  it("Info, Deliveries and Refused say what cattle_grid does not report, and the browser logs no failed request", async () => {
    const failed: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") failed.push(message.text());
    });
    // Loading Info anew ends the old page's streams (net::ERR_ABORTED); only requests the new page
    // makes count.
    const made = new WeakSet<object>();
    page.on("request", (request) => made.add(request));
    page.on("requestfailed", (request) => {
      if (made.has(request)) failed.push(`failed ${request.url()}`);
    });
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto("/");
    await page.getByText("The upstream server does not report activity").waitFor();
    await page.getByText(`"${bobActor.id}"`).first().waitFor();
    await drawerEntry(page, "Deliveries").click();
    await page.getByText(/The upstream server does not report deliveries/).waitFor();
    await drawerEntry(page, "Refused").click();
    await page.getByText(/The upstream server does not report refusals/).waitFor();
    await openFromDrawer(page, "Info");
    await page.getByText("The upstream server does not report activity").waitFor();
    expect(failed).toEqual([]);
  });

  it("switches the current actor in the Open menu and names it in the top bar; dark mode and ? work", async () => {
    // Both actors bear the name given at creation; the menu lists them in the account's order.
    const { actors } = await bobApi.info();
    const other = actors.find((actor) => actor.id !== bobActor.id)!;
    const topBarActor = page.getByTestId("top-bar-actor");
    expect(await topBarActor.getAttribute("title")).toBe(bobActor.id);
    const menu = await openActorMenu(page);
    await menu.locator("[role^=menuitem]").nth(actors.indexOf(other)).click();
    await eventually(() => topBarActor.getAttribute("title")).toBe(other.id);
    await eventually(async () => (await readUserStorage(page))?.currentActor).toBe(other.id);
    const dark = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await dark();
    await page.getByRole("button", { name: "Toggle dark mode" }).click();
    await eventually(dark).not.toBe(before);
    await page.getByRole("button", { name: "Toggle dark mode" }).click();
    await eventually(dark).toBe(before);
    await openFromDrawer(page, "Incoming");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("?");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    await page.keyboard.press("Escape");
  });

  it("logs out (cattle_grid has no sign-out route: the console forgets the token)", async () => {
    const menu = await openActorMenu(page);
    await menu.getByRole("menuitem", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await signInControl(page).waitFor();
    await page.getByText("Please login").waitFor();
  });

  it("signed out, Lookup and Perform say Please login; a refused sign-in shows cattle_grid's reason; a new browser's Incoming fills from cattle_grid's history", async () => {
    for (const path of ["/lookup", "/perform"]) {
      await page.goto(path);
      await page.getByText("Please login").waitFor();
    }
    const fresh = await browser.newContext({
      baseURL: proxy.url,
      viewport: { width: 1280, height: 900 },
    });
    fresh.setDefaultTimeout(15_000);
    try {
      const other = await fresh.newPage();
      await other.goto("/signin");
      await other.getByRole("textbox", { name: "Name" }).fill(bob.name);
      await other.getByLabel("Password").fill("not-the-password");
      await signInForm(other).getByRole("button", { name: "Sign In" }).click();
      const reason = signInForm(other).getByRole("alert");
      await eventually(() => reason.innerText()).toMatch(/\S/);
      expect(new URL(other.url()).pathname).toBe("/signin");

      await signIn(other, bob);
      await openFromDrawer(other, "Incoming");
      // Sent by alice in the third test, before this browser existed; cattle_grid's history holds it.
      await other.getByText('"hello through cattle_grid"').first().waitFor();
    } finally {
      await fresh.close();
    }
  });
});
