import type { Page } from "playwright-core";
import { squeezedTexts } from "./harness/squeezed-text.ts";
import { expect, test } from "./harness/fixtures.ts";
import { drawerEntry, signIn, topBar } from "./harness/console-ui.ts";

// docs/console-guide.md#deliveries, for answers the real server cannot be brought to give in a test (a
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

test("at 390 px each host is a card: every column and Stop and Retry in view, host names whole", async ({
  page,
  account,
}) => {
  await page.route("**/fe/account/hosts", (route) => route.fulfill({ status: 200, json: hosts }));
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, account);

  await topBar(page).getByRole("button", { name: "Menu" }).click();
  await drawerEntry(page, "Deliveries").click();
  const list = page.getByRole("list", { name: "Remote hosts" });
  await list.waitFor();
  await page
    .getByRole("img", { name: "Failures per day, last 7 days: 0, 0, 3, 1, 0, 0, 2" })
    .waitFor();

  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await squeezedTexts(page)).toEqual([]);
  await page.screenshot({ path: "/tmp/corral-390-deliveries.png", fullPage: true });
  const long = list.getByRole("listitem", { name: "a-rather-long-host-name.mastodon.example" });
  for (const label of ["Last success", "Last failure", "Failures (7 days)", "Queued"]) {
    const term = long.getByText(label, { exact: true });
    const box = await term.boundingBox();
    expect(box!.x + box!.width, label).toBeLessThanOrEqual(390);
  }
  for (const [host, name] of [
    ["a-rather-long-host-name.mastodon.example", "Stop delivery"],
    ["pixelfed.example", "Resume delivery"],
    ["pixelfed.example", "Retry now"],
  ] as const) {
    const button = list.getByRole("listitem", { name: host }).getByRole("button", { name });
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box!.x, name).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
  }
  // A host name breaks only after its dots: each label stays on one line.
  const brokenLabels = await long.evaluate((item) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      if (!/^[\w-]{2,}$/.test(text)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (tops.size > 1) broken.push(text);
    }
    return broken;
  });
  expect(brokenLabels).toEqual([]);
});
