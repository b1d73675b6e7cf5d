import type { Page, Request, Route } from "playwright-core";
import { expect, pageLog, test } from "./harness/fixtures.ts";
import {
  badgeCount,
  drawerEntry,
  eventually,
  recordFeRequests,
  signIn,
  openFromDrawer,
} from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#streams (reconnect after a failure: 5000 ms by default or the server's retry,
// Last-Event-ID resent; non-200 or non-event-stream answers are fatal; unparseable messages
// ignored). The restart is real; the malformed answers are ones only another server (cattle_grid, a
// proxy) would give, so those are played to the browser with page.route.

function streamRequests(requests: Request[], type: string): Request[] {
  return requests.filter((request) => request.url().endsWith(`/fe/account/stream/${type}`));
}

/** Answers the first request for a stream with `answer`; later ones reach the real server. */
async function answerFirstStreamRequest(
  page: Page,
  type: string,
  answer: (route: Route) => Promise<void>,
) {
  let answered = false;
  await page.route(`**/fe/account/stream/${type}`, async (route) => {
    if (answered) return route.continue();
    answered = true;
    await answer(route);
  });
}

test("after the server restarts the streams reconnect and resume after the last id: nothing lost, nothing doubled", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = (await api.createActor("survivor")).id;
  const requests = recordFeRequests(page);
  await signIn(page, account);
  await openFromDrawer(page, "Error");
  await api.trigger("lost_method_1", { actor });
  await api.trigger("lost_method_2", { actor });
  await eventually(() => badgeCount(page, "Error")).toBe(2);
  const before = streamRequests(requests, "error").length;

  await corral.stop();
  await corral.start();
  // These happen while the console waits to reconnect: it must fetch them after the last id held.
  await api.trigger("lost_method_3", { actor });
  await api.trigger("lost_method_4", { actor });

  await eventually(() => badgeCount(page, "Error"), 20_000).toBe(4);
  const resumed = streamRequests(requests, "error").slice(before);
  expect(resumed.length).toBeGreaterThan(0);
  expect(await resumed.at(-1)!.headerValue("last-event-id")).toMatch(/^\d+$/);
  for (const name of ["lost_method_1", "lost_method_2", "lost_method_3", "lost_method_4"]) {
    const trees = page.locator("main .json-tree").filter({ hasText: `routing_key: "${name}"` });
    expect(await trees.count(), name).toBe(1);
  }
  expect(await page.locator("main .json-tree").count()).toBe(4);
});

test("a data frame that is not JSON (cattle_grid's heartbeat) is ignored", async ({
  page,
  account,
}) => {
  await answerFirstStreamRequest(page, "error", (route) =>
    route.fulfill({
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body: 'data: : <3\n\ndata: {"message": ["from a heartbeat test"], "routing_key": "heartbeat_test"}\n\n',
    }),
  );
  await signIn(page, account);
  await openFromDrawer(page, "Error");
  await page.getByText('"heartbeat_test"').first().waitFor();
  expect(await badgeCount(page, "Error")).toBe(1);
  expect(await page.locator("main .json-tree").count()).toBe(1);
});

test("a stream answered with a status other than 200, or not as an event stream, is given up", async ({
  page,
  account,
}) => {
  const requests = recordFeRequests(page);
  await answerFirstStreamRequest(page, "error", (route) =>
    route.fulfill({ status: 422, body: "no such stream" }),
  );
  await answerFirstStreamRequest(page, "outgoing", (route) =>
    route.fulfill({ status: 200, headers: { "content-type": "text/plain" }, body: "hello" }),
  );
  await signIn(page, account);
  await drawerEntry(page, "Error").waitFor();
  await eventually(() => streamRequests(requests, "incoming").length).toBe(1);
  // Longer than the 5000 ms reconnect delay: a retry would have shown by now.
  await page.waitForTimeout(6_500);
  expect(streamRequests(requests, "error")).toHaveLength(1);
  expect(streamRequests(requests, "outgoing")).toHaveLength(1);
  expect(streamRequests(requests, "incoming")).toHaveLength(1);
});

test("after a network failure the stream reconnects 5000 ms later", async ({ page, account }) => {
  const times: number[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/fe/account/stream/error")) times.push(Date.now());
  });
  await answerFirstStreamRequest(page, "error", (route) => route.abort("connectionreset"));
  await signIn(page, account, { awaitStreams: false });
  await eventually(() => times.length, 10_000).toBe(2);
  const delay = times[1]! - times[0]!;
  expect(delay).toBeGreaterThanOrEqual(4_500);
  expect(delay).toBeLessThan(10_000); // generous: two loaded cores delay request events
  expect(
    pageLog(page).some((line) => line.startsWith("[warning]") && line.includes("stream")),
  ).toBe(true);
});

test("a retry value sent by the server replaces the 5000 ms delay", async ({ page, account }) => {
  const times: number[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/fe/account/stream/error")) times.push(Date.now());
  });
  // The stream says retry: 1000 and then ends, as a server going down for a moment would.
  await answerFirstStreamRequest(page, "error", (route) =>
    route.fulfill({
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body: "retry: 1000\n\n",
    }),
  );
  await signIn(page, account);
  await eventually(() => times.length, 5_000).toBe(2);
  const delay = times[1]! - times[0]!;
  expect(delay).toBeGreaterThanOrEqual(800);
  expect(delay).toBeLessThan(4_000); // well under the 5000 ms default
});
