import type { Browser, Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import {
  badgeCount,
  drawerEntry,
  eventually,
  openFromDrawer,
  signIn,
} from "./harness/console-ui.ts";
import { startCorral, type Corral } from "./harness/corral-server.ts";
import { startUpstreamWithoutIds, type Upstream } from "./harness/upstream-without-ids.ts";

// issue 26 item 4 and issue 29 item 2, proxy mode in front of a cattle_grid-like upstream (its
// info names cattle_grid 0.5.22; its streams carry no ids; it keeps a history of its 10 newest).

const CATTLE_GRID = { name: "cattle_grid", version: "0.5.22" };
const actor = "http://upstream.example/actor/op";

function noteEvent(text: string, eventType = "incoming") {
  const id = `http://remote.example/notes/${encodeURIComponent(text)}`;
  const activity = {
    "@context": "https://www.w3.org/ns/activitystreams",
    type: "Create",
    id: `${id}/activity`,
    actor: "http://remote.example/actor/ann",
    to: [actor],
    object: { type: "Note", id, content: text },
  };
  return {
    actor,
    event_type: eventType,
    history_id: null,
    data: { raw: activity, parsed: { activity: { type: "Create", id: activity.id } } },
  };
}

async function withProxy(
  browser: Browser,
  upstream: Upstream,
  run: (page: Page, log: string[]) => Promise<void>,
) {
  const proxy: Corral = await startCorral({ upstream: upstream.url });
  const context = await browser.newContext({ baseURL: proxy.url });
  context.setDefaultTimeout(15_000);
  try {
    const page = await context.newPage();
    const log: string[] = [];
    page.on("console", (message) => log.push(`[${message.type()}] ${message.text()}`));
    await run(page, log);
  } finally {
    await context.close();
    await proxy.dispose();
    await upstream.close();
  }
}

const treesWith = (page: Page, text: string) =>
  page.locator("main .json-tree").filter({ hasText: text });

test("on a new browser the stream pages fill from the upstream's history, once; Info and Deliveries ask for no route it lacks and log no failed request", async ({
  browser,
}) => {
  const upstream = await startUpstreamWithoutIds("proxied", {
    backend: CATTLE_GRID,
    history: [noteEvent("old one"), noteEvent("sent one", "outgoing"), noteEvent("old two")],
  });
  await withProxy(browser, upstream, async (page, log) => {
    await signIn(page, { name: "proxied", password: "anything" });
    await eventually(() => badgeCount(page, "Incoming")).toBe(2);
    expect(await badgeCount(page, "Outgoing")).toBe(1);
    await openFromDrawer(page, "Incoming");
    await treesWith(page, "old one").waitFor();
    await treesWith(page, "old two").waitFor();

    await openFromDrawer(page, "Info");
    await page.getByText("The upstream server does not report activity").waitFor();
    await page.getByText(/Cattle Drive is not reported there/).waitFor();
    await drawerEntry(page, "Deliveries").click();
    await page.waitForURL((url) => url.pathname === "/deliveries");
    await page.getByText("The upstream server does not report deliveries").waitFor();
    expect(upstream.paths.filter((path) => /activity|hosts|cattle-drive/.test(path))).toEqual([]);
    expect(log.filter((line) => line.includes("Failed to load resource"))).toEqual([]);

    // A reload fills nothing again: each message is held once.
    await page.reload();
    await eventually(() => badgeCount(page, "Incoming")).toBe(2);
    await page.waitForTimeout(500); // a second fill would have landed by now
    expect(await badgeCount(page, "Incoming")).toBe(2);
  });
});

test("after a reconnect without ids, what the upstream's history holds of the gap comes back, once, and the marker counts it", async ({
  browser,
}) => {
  const upstream = await startUpstreamWithoutIds("proxied", { backend: CATTLE_GRID, history: [] });
  await withProxy(browser, upstream, async (page) => {
    await signIn(page, { name: "proxied", password: "anything" });
    await openFromDrawer(page, "Incoming");
    upstream.push(noteEvent("live before"));
    await treesWith(page, "live before").waitFor();

    upstream.dropStreams();
    // Sent while the console is away: only the history has it.
    upstream.push(noteEvent("while away"));
    await treesWith(page, "while away").waitFor();
    await eventually(() => page.getByTestId("stream-marker").innerText()).toBe(
      "Reconnected: 1 missed messages replayed",
    );
    upstream.push(noteEvent("live after"));
    await treesWith(page, "live after").waitFor();
    for (const text of ["live before", "while away", "live after"]) {
      expect(await treesWith(page, text).count(), text).toBe(1);
    }
    expect(await badgeCount(page, "Incoming")).toBe(3);
  });
});
