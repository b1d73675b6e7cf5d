import { expect, test } from "./harness/fixtures.ts";
import { eventually, signIn, topBar } from "./harness/console-ui.ts";
import { buildCreateNote, signInApi } from "./harness/fe-api.ts";

// Issue 17: the Info page's figure "Activity, last hour" (GET /fe/account/activity, uPlot).

test("'Activity, last hour' draws the account's traffic and follows it live, in the theme's colours", async ({
  page,
  account,
  corral,
}) => {
  await signIn(page, account);
  const figure = page.getByRole("figure", { name: "Activity, last hour" });
  await figure.getByText("In the last hour: 0 incoming, 0 outgoing, 0 error").waitFor();
  await figure.locator("canvas").first().waitFor();

  // Two actors of this account: each send is one outgoing and, delivered here, one incoming event.
  const api = await signInApi(corral.url, account.name, account.password);
  const [ann, bea] = await Promise.all([api.createActor("ann"), api.createActor("bea")]);
  for (let i = 0; i < 2; i++)
    await api.trigger("send_message", { actor: ann.id, data: buildCreateNote(ann.id, bea.id) });

  // No reload: the stream badges change and the chart asks again.
  await figure.getByText("In the last hour: 2 incoming, 2 outgoing, 0 error").waitFor();
  const legend = figure.locator(".u-legend");
  await legend.getByText("incoming").waitFor();
  await legend.getByText("error").waitFor();

  const chartColor = () =>
    figure.getByTestId("activity-chart").evaluate((element) => getComputedStyle(element).color);
  expect(await chartColor()).toBe("rgba(0, 0, 0, 0.6)");
  await topBar(page).getByRole("button", { name: "Toggle dark mode" }).click();
  await eventually(chartColor).toBe("rgba(255, 255, 255, 0.7)");
  await figure.locator("canvas").first().waitFor();
});

test("the chart shows it waits, then says in words that a server without the route reports no activity", async ({
  page,
  account,
}) => {
  // A cattle_grid (what proxy mode forwards to) answers this route 404 {"detail": "Not Found"}.
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route("**/fe/account/activity*", async (route) => {
    await held;
    await route.fulfill({ status: 404, json: { detail: "Not Found" } });
  });
  await signIn(page, account);
  const figure = page.getByRole("figure", { name: "Activity, last hour" });
  await figure.getByRole("progressbar", { name: "Loading activity" }).waitFor();

  release();
  await figure.getByText(/The upstream server does not report activity/).waitFor();
  await figure.getByRole("progressbar").waitFor({ state: "hidden" });
});

test("the chart's legend writes the moment under the pointer in the console's one format", async ({
  page,
  account,
}) => {
  await signIn(page, account);
  const figure = page.getByRole("figure", { name: "Activity, last hour" });
  await figure.getByText("In the last hour: 0 incoming, 0 outgoing, 0 error").waitFor();
  const over = figure.locator(".u-over");
  await over.waitFor();
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // uPlot's own "11/28/26 5:10am" was seen here, beside "05:04:40" everywhere else.
  const time = figure.locator(".u-legend .u-series").first().locator(".u-value");
  await eventually(() => time.textContent()).toMatch(/^\d\d:\d\d:\d\d$/);
});
