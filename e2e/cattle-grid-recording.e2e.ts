import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startCattleGrid, type CattleGrid } from "../test-peers/cattle-grid.ts";
import { launchChromium } from "./harness/chromium.ts";
import {
  badgeCount,
  eventually,
  isDisabled,
  openFromDrawer,
  signIn,
} from "./harness/console-ui.ts";
import { startCorral, type Corral } from "./harness/corral-server.ts";
import { buildCreateNote, signInApi, type FeApi } from "./harness/fe-api.ts";
import { messageTrees } from "./harness/stream-events.ts";

// Issue 36: in front of the real cattle_grid 0.5.22 with --upstream-amqp, Corral records every
// event from cattle_grid's RabbitMQ (docs/proxy-history.md), and a new browser gets the history
// checks that pass in front of Corral's own server (stream-history.e2e.ts): the newest page,
// "Load earlier" to "Everything the server keeps", server search "N of M", From and To, and a
// message opened by its id. cattle_grid itself would give back its 10 newest.

const FIRST = 30;
const LATER = 100;
const TOTAL = FIRST + LATER;

let cattleGrid: CattleGrid;
let proxy: Corral;
let browser: Browser;
const contexts: BrowserContext[] = [];
const alice = { name: "alice", password: "alice-password" };
const bob = { name: "bob", password: "bob-password" };
let aliceApi: FeApi;
let bobApi: FeApi;
let bobActor: { id: string };
let recorded: Recorded[];

type Recorded = { id: number; receivedAt: string; event: { data: { raw: { id: string } } } };

const shownCount = (page: Page) => page.getByTestId("shown-count").textContent();
const noteText = (i: number) => `recorded note ${i} of ${TOTAL}`;

/** bob's incoming as Corral recorded it, newest first. */
async function bobsIncoming(): Promise<Recorded[]> {
  const response = await fetch(`${proxy.url}/fe/account/events/incoming?limit=500`, {
    headers: { Authorization: `Bearer ${bobApi.token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: Recorded[] }).events;
}

/**
 * Signs in through the sign-in page; says what the page showed when that did not work (cattle_grid
 * has answered 401 to a token it had just given, seen in cattle-grid-proxy.e2e.ts).
 */
async function signInAs(page: Page, account: { name: string; password: string }) {
  try {
    await signIn(page, account);
  } catch (error) {
    const shown = await page
      .locator("body")
      .innerText()
      .catch(() => "(nothing)");
    throw new Error(`sign-in of ${account.name} at ${page.url()}: ${String(error)}\n${shown}`, {
      cause: error,
    });
  }
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({
    baseURL: proxy.url,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  contexts.push(context);
  return context.newPage();
}

/** The first Note sent, as recorded (cattle_grid may process a few in another order). */
function firstNote(): Recorded {
  return recorded.find((e) => JSON.stringify(e.event).includes(`"${noteText(0)}"`))!;
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

/** expect.poll for beforeAll (it works inside tests only). */
async function waitFor(check: () => Promise<boolean>, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  [cattleGrid, browser] = await Promise.all([startCattleGrid(), launchChromium()]);
  proxy = await startCorral({ upstream: cattleGrid.origin, upstreamAmqp: cattleGrid.amqpUrl });
  await waitFor(async () => (await fetch(`${proxy.url}/readyz`)).status === 200, "ready", 60_000);
  await cattleGrid.createAccount(alice.name, alice.password);
  await cattleGrid.createAccount(bob.name, bob.password);
  // One after the other: two sign-ins at once have given a token cattle_grid then answered 401.
  aliceApi = await signInApi(cattleGrid.origin, alice.name, alice.password);
  bobApi = await signInApi(cattleGrid.origin, bob.name, bob.password);
  const aliceActor = await aliceApi.createActor("alice");
  bobActor = await bobApi.createActor("bob");
  const send = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const note = buildCreateNote(aliceActor.id, bobActor.id, noteText(i));
      await aliceApi.trigger("send_message", { actor: aliceActor.id, data: note });
    }
  };
  // The first 30, all recorded, then a page's worth more: the first ones are beyond a new
  // browser's first page, and recorded at a later time than any of the later ones.
  await send(0, FIRST);
  await waitFor(async () => (await bobsIncoming()).length === FIRST, "the first 30", 120_000);
  await send(FIRST, TOTAL);
  await waitFor(async () => (await bobsIncoming()).length === TOTAL, "all Notes", 180_000);
  recorded = await bobsIncoming();
}, 600_000);

// Each test is a new browser; the one before is gone (its streams closed).
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser?.close();
  await proxy?.dispose();
  await cattleGrid?.stop();
});

describe("a new browser in front of cattle_grid, with Corral recording its events", () => {
  it("shows the newest page, finds the first Note by a server search and reaches it by Load earlier", async () => {
    const page = await newPage();
    await signInAs(page, bob);
    await page
      .getByText(/^History: Corral records every event of this account from cattle_grid's RabbitMQ/)
      .waitFor();
    await openFromDrawer(page, "Incoming");
    await eventually(() => badgeCount(page, "Incoming")).toBe(100);
    await eventually(() => messageTrees(page).count()).toBeGreaterThan(0);
    expect(await page.locator("main").textContent()).not.toContain(noteText(0));

    const search = page.getByRole("searchbox", { name: "Search messages" });
    await search.fill(noteText(0));
    await eventually(() => shownCount(page)).toBe(`1 of ${TOTAL}`);
    await eventually(() => messageTrees(page).count()).toBe(1);
    expect(await messageTrees(page).first().textContent()).toContain(noteText(0));
    await search.fill("");
    await eventually(() => shownCount(page)).toBe("100 of 100");

    await page.getByRole("button", { name: "Load earlier" }).click();
    await eventually(() => badgeCount(page, "Incoming")).toBe(TOTAL);
    const begins = page.getByTestId("history-begins");
    await eventually(() => begins.textContent()).toBe("Everything the server keeps");
    expect(await isDisabled(page.getByRole("button", { name: "Load earlier" }))).toBe(true);
    // The oldest on top: the first Notes, in the order cattle_grid processed them (which is not
    // always the order they were sent in: note 1 was seen before note 0). Earlier pages go in
    // above the view, which holds still on what it showed (use-follow-newest.ts), so the
    // operator scrolls up to them, as here.
    const oldest = /recorded note \d+ of \d+/.exec(JSON.stringify(recorded.at(-1)!.event))![0];
    await eventually(async () => {
      await page.evaluate(() => window.scrollTo(0, 0));
      return page.locator("main").textContent();
    }).toContain(`"${oldest}"`);
  });

  it("narrows to the first 30 by From and To", async () => {
    const page = await newPage();
    await signInAs(page, bob);
    await openFromDrawer(page, "Incoming");
    await eventually(() => badgeCount(page, "Incoming")).toBe(100);
    const oldest = recorded.at(-1)!;
    const lastOfFirst = recorded.at(-FIRST)!;
    await page.getByLabel("From", { exact: true }).fill(localInput(oldest.receivedAt));
    await page.getByLabel("To", { exact: true }).fill(localInput(lastOfFirst.receivedAt));
    await eventually(() => shownCount(page)).toBe(`${FIRST} of ${TOTAL}`);
  });

  it("opens the first Note by its id", async () => {
    const page = await newPage();
    await signInAs(page, bob);
    const first = firstNote();
    await page.goto(`/stream/incoming?event=${first.id}`);
    const marked = page.locator('[data-testid="stream-message"][aria-current="true"]');
    await marked.waitFor();
    expect(await marked.textContent()).toContain(noteText(0));
  });

  it("never shows bob's events to alice", async () => {
    const page = await newPage();
    await signInAs(page, alice);
    await openFromDrawer(page, "Outgoing");
    await eventually(() => badgeCount(page, "Outgoing")).toBe(100);
    expect(await badgeCount(page, "Incoming")).toBe(0);
    const first = firstNote();
    // bob's first Note by its id on bob's incoming: alice's incoming holds no such event.
    const response = await fetch(`${proxy.url}/fe/account/events/incoming?id=${first.id}`, {
      headers: { Authorization: `Bearer ${aliceApi.token}` },
    });
    expect(((await response.json()) as { events: unknown[] }).events).toEqual([]);
  });
});
