import { expect, test } from "./harness/fixtures.ts";
import { badgeCount, eventually, openFromDrawer, signIn } from "./harness/console-ui.ts";
import { startCorral } from "./harness/corral-server.ts";
import { signInApi } from "./harness/fe-api.ts";
import { isInView } from "./harness/in-view.ts";
import { startUpstreamWithoutIds } from "./harness/upstream-without-ids.ts";

// docs/console-guide.md#streams, Connection: the status region, and the marker a reconnect leaves.

const status = (page: import("playwright-core").Page) =>
  page.getByRole("status", { name: "Connection" }).innerText();

test("a stopped server shows Reconnecting in N s counting down; after the restart the missed messages are replayed and counted", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = (await api.createActor("restart")).id;
  await signIn(page, account);
  await openFromDrawer(page, "Error");
  await eventually(() => status(page)).toBe("Connected");
  // More than a window holds: the replayed messages come below the fold unless the page follows.
  for (let i = 0; i < 5; i++) await api.trigger(`before_stop_${i}`, { actor });
  await eventually(() => badgeCount(page, "Error")).toBe(5);

  // Held back until the missed messages exist, so the reconnect that follows has them to replay.
  let holdBack = true;
  await page.route("**/fe/account/stream/error", (route) =>
    holdBack ? route.abort("connectionrefused") : route.continue(),
  );
  await corral.stop();
  await eventually(() => status(page)).toMatch(
    /^Reconnecting in [1-5] s \(upstream unreachable\)$/,
  );
  const first = Number(/(\d) s/.exec(await status(page))![1]);
  await eventually(async () => Number(/(\d) s/.exec(await status(page))?.[1] ?? 99)).toBeLessThan(
    first,
  );
  await corral.start();
  await api.trigger("while_away_1", { actor });
  await api.trigger("while_away_2", { actor });
  holdBack = false;
  // The attempts met a refused connection and wait longer each time: no need to wait it out.
  // The other streams' reconnect may already have cut the wait short (the server is back), and
  // then the button is gone.
  const reconnectNow = page.getByRole("button", { name: "Reconnect now" });
  if (await reconnectNow.isVisible()) await reconnectNow.click({ timeout: 2_000 }).catch(() => {});

  await eventually(() => status(page), 20_000).toBe("Connected");
  await eventually(() => page.getByTestId("stream-marker").innerText()).toBe(
    "Reconnected: 2 missed messages replayed",
  );
  await eventually(() => badgeCount(page, "Error")).toBe(7);
  // The marker sits between the messages from before and the two replayed ones, all in view.
  const order = await page
    .locator('[data-testid="stream-message"], [data-testid="stream-marker"]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-testid")));
  expect(order.slice(-4)).toEqual([
    "stream-message",
    "stream-marker",
    "stream-message",
    "stream-message",
  ]);
  await eventually(() => isInView(page.getByTestId("stream-marker"))).toBe(true);
  const replayed = page.getByTestId("message-summary").filter({ hasText: "while_away_2" });
  await eventually(() => isInView(replayed)).toBe(true);
});

test("a stream the server refuses shows Disconnected with the reason, and Reconnect tries again", async ({
  page,
  account,
}) => {
  let refuse = true;
  await page.route("**/fe/account/stream/error", (route) =>
    refuse ? route.fulfill({ status: 404, body: "no such stream" }) : route.continue(),
  );
  await signIn(page, account);
  await openFromDrawer(page, "Error");
  await eventually(() => status(page)).toBe("Disconnected: status 404");
  await openFromDrawer(page, "Incoming");
  await eventually(() => status(page)).toBe("Connected");
  await openFromDrawer(page, "Error");
  refuse = false;
  await page.getByRole("button", { name: "Reconnect" }).click();
  await eventually(() => status(page)).toBe("Connected");
});

test("a gateway's 503 is not a refusal: the status says the upstream is unreachable and it is tried again", async ({
  page,
  account,
}) => {
  let answered = 0;
  await page.route("**/fe/account/stream/error", (route) =>
    ++answered === 1 ? route.fulfill({ status: 503, body: "busy" }) : route.continue(),
  );
  await signIn(page, account);
  await openFromDrawer(page, "Error");
  await eventually(() => status(page)).toMatch(
    /^Reconnecting in [1-5] s \(upstream unreachable\)$/,
  );
  await eventually(() => status(page), 10_000).toBe("Connected");
  expect(answered).toBe(2);
});

test("in proxy mode before a stream without ids, a reconnect says that messages may be missing", async ({
  browser,
}) => {
  const upstream = await startUpstreamWithoutIds("proxied");
  const proxy = await startCorral({ upstream: upstream.url });
  const context = await browser.newContext({ baseURL: proxy.url });
  try {
    const page = await context.newPage();
    await signIn(page, { name: "proxied", password: "anything" });
    await openFromDrawer(page, "Error");
    await page.getByText('"upstream_error_1"').waitFor();
    await eventually(() => upstream.errorStreams, 15_000).toBe(2);
    const marker = page.getByTestId("stream-marker");
    await eventually(() => marker.innerText()).toBe(
      "Reconnected: messages sent while disconnected may be missing",
    );
    expect(await marker.getAttribute("title")).toMatch(
      /^Disconnected from \d\d:\d\d:\d\d to \d\d:\d\d:\d\d$/,
    );
    await page.getByText('"upstream_error_2"').waitFor();
    expect(await badgeCount(page, "Error")).toBe(2);
    expect(await status(page)).toBe("Connected");
  } finally {
    await context.close();
    await proxy.dispose();
    await upstream.close();
  }
});
