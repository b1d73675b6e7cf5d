import { expect, test } from "./harness/fixtures.ts";
import { eventually, recordFeRequests, signIn, userLookups } from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#lookup: the page and its lookup request.

test("the Lookup page shows Loading... until a current actor exists", async ({ page, account }) => {
  await signIn(page, account);
  await page.goto("/lookup");
  await page.getByText("Loading...").waitFor();
  expect(await page.getByRole("textbox", { name: "URI" }).count()).toBe(0);
});

test("looks the URI up when the field loses focus and puts it in ?uri=", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const me = await api.createActor("looker");
  const target = await api.createActor("target");
  const requests = recordFeRequests(page);
  await signIn(page, account);
  await page.goto("/lookup");
  const field = page.getByRole("textbox", { name: "URI" });
  await field.fill(target.id);
  // Typing alone does not look anything up: only leaving the field does.
  await page.waitForTimeout(300);
  expect(userLookups(requests)).toHaveLength(0);
  await field.blur();
  await eventually(() => new URL(page.url()).searchParams.get("uri")).toBe(target.id);
  await page.getByText('"target"').first().waitFor();
  const lookup = userLookups(requests)[0]!;
  expect(lookup.postDataJSON()).toEqual({ uri: target.id, actorId: me.id });
});

test("visiting /lookup?uri=… puts the URI in the field and looks it up", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("visitor");
  const target = await api.createActor("visited");
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(target.id)}`);
  expect(await page.getByRole("textbox", { name: "URI" }).inputValue()).toBe(target.id);
  await page.getByText('"visited"').first().waitFor();
});

test("a link in the result changes ?uri= in place, which looks the new URI up", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("hopper");
  const target = await api.createActor("linked");
  const requests = recordFeRequests(page);
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(target.id)}`);
  await page.getByText('"linked"').first().waitFor();
  const followers = String(target.followers);
  await page.getByRole("link", { name: followers, exact: true }).first().click();
  await eventually(() => new URL(page.url()).searchParams.get("uri")).toBe(followers);
  await eventually(() => page.getByRole("textbox", { name: "URI" }).inputValue()).toBe(followers);
  const lookedUp = () => userLookups(requests).map((r) => r.postDataJSON().uri);
  await eventually(lookedUp).toEqual([target.id, followers]);
});

test("shows a curl line that requests the URI as activity+json", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("curler");
  const target = await api.createActor("curled");
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(target.id)}`);
  const curl = page.getByText(/curl\b/).first();
  await curl.waitFor();
  const line = (await curl.textContent()) ?? "";
  expect(line).toContain(target.id);
  expect(line).toMatch(/accept: application\/activity\+json/i);
});
