import type { Page } from "playwright-core";
import { squeezedTexts } from "./harness/squeezed-text.ts";
import { expect, test } from "./harness/fixtures.ts";
import { drawerEntry, signIn, topBar } from "./harness/console-ui.ts";

// workbench.md "Deliveries", for answers the real server cannot be brought to give in a test (a
// cattle_grid without the route, a week of failures on a long host name), played with
// page.route. The page against the real server and real remotes: deliveries-real.e2e.ts.

/** What a real cattle_grid behind `--upstream` answers for a route it does not have. */
async function playUpstreamWithoutHosts(page: Page): Promise<void> {
  await page.route("**/fe/account/hosts", (route) =>
    route.fulfill({ status: 404, json: { detail: "Not Found" } }),
  );
}

const hosts = [
  {
    host: "a-rather-long-host-name.mastodon.example",
    state: "failing",
    lastSuccessAt: "2026-11-20T10:00:00Z",
    lastFailureAt: "2026-11-25T03:00:00Z",
    failures7d: 6,
    failuresByDay: [0, 0, 3, 1, 0, 0, 2],
    queued: 12,
    failed: [
      {
        inbox: "https://a-rather-long-host-name.mastodon.example/users/someone/inbox",
        status: 503,
        attempts: 5,
        lastError: "HTTP 503 Service Unavailable",
        triggerId: "t-1",
      },
    ],
  },
  {
    host: "pixelfed.example",
    state: "stopped",
    lastSuccessAt: null,
    lastFailureAt: null,
    failures7d: 0,
    queued: 0,
    failed: [],
  },
];

test("in proxy mode (the upstream answers 404) the page says the upstream does not report deliveries", async ({
  page,
  account,
}) => {
  await playUpstreamWithoutHosts(page);
  await signIn(page, account);

  await drawerEntry(page, "Deliveries").click();
  await page.waitForURL((url) => url.pathname === "/deliveries");

  const main = page.getByRole("main");
  await main.getByText(/The upstream server does not report deliveries/).waitFor();
  expect(await main.getByRole("alert").count()).toBe(0);
  expect(await main.getByRole("link", { name: "Outgoing" }).getAttribute("href")).toBe(
    "/stream/outgoing",
  );
});

test("at 390 px the hosts table scrolls inside the page and no text is squeezed", async ({
  page,
  account,
}) => {
  await page.route("**/fe/account/hosts", (route) => route.fulfill({ status: 200, json: hosts }));
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, account);

  await topBar(page).getByRole("button", { name: "Menu" }).click();
  await drawerEntry(page, "Deliveries").click();
  const table = page.getByRole("table", { name: "Remote hosts" });
  await table.waitFor();
  await page
    .getByRole("img", { name: "Failures per day, last 7 days: 0, 0, 3, 1, 0, 0, 2" })
    .waitFor();

  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await squeezedTexts(page)).toEqual([]);
  await page.screenshot({ path: "/tmp/corral-390-deliveries.png", fullPage: true });
  // Every column is still there, reached by scrolling the table, not the page.
  const button = table.getByRole("button", { name: "Stop delivery" });
  await button.scrollIntoViewIfNeeded();
  expect(await button.isVisible()).toBe(true);
  // The host stays beside its buttons while the table scrolls.
  const host = table.getByRole("cell", { name: "pixelfed.example" });
  expect(await host.isVisible()).toBe(true);
  const [hostBox, buttonBox] = [await host.boundingBox(), await button.boundingBox()];
  expect(hostBox!.x).toBeGreaterThanOrEqual(0);
  expect(buttonBox!.x + buttonBox!.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "/tmp/corral-390-deliveries-scrolled.png", fullPage: true });
});
