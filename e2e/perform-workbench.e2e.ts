import { expect, test } from "./harness/fixtures.ts";
import {
  chooseOption,
  eventually,
  openFromDrawer,
  recordFeRequests,
  signIn,
} from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#perform: description, "Insert example", Perform disabled with the parser's
// reason, the draft kept, a truthful "Result", and "History" with "Run again" and "Edit".

const triggerPosts = (requests: ReturnType<typeof recordFeRequests>) =>
  requests.filter((r) => new URL(r.url()).pathname.startsWith("/fe/actor/trigger/"));

test("shows the method's description; 'Insert example' fills data; invalid JSON disables Perform with the reason", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor("example");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  const perform = page.getByRole("button", { name: "Perform" });
  const data = page.getByRole("textbox", { name: "data" });

  await chooseOption(page, "Method to perform", "send_message");
  await page.getByText("Delivers data exactly as given", { exact: false }).waitFor();
  await page.getByRole("button", { name: "Insert example" }).click();
  // The server's example as it is: it names the account's actors as recipients; the server takes
  // the acting actor as data.actor (issue 25, item 4).
  const example = JSON.parse(await data.inputValue()) as { data: { actor?: string; to: string[] } };
  expect(example.data.actor).toBeUndefined();
  expect(example.data.to).toContain(actor.id);
  expect(await perform.isEnabled()).toBe(true);

  await data.fill('{"data": {"type": "No');
  await eventually(() => perform.isDisabled()).toBe(true);
  await page.getByText(/^Not valid JSON: /).waitFor();
  await page.getByRole("heading", { name: "... typing ..." }).waitFor();
});

test("keeps the method and the data across leaving the page and a reload", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("drafter");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  await chooseOption(page, "Method to perform", "update_actor");
  await page.getByRole("textbox", { name: "data" }).fill('{"profile": {"name": "half');

  await openFromDrawer(page, "Info");
  await openFromDrawer(page, "Perform");
  expect(await page.getByRole("textbox", { name: "data" }).inputValue()).toBe(
    '{"profile": {"name": "half',
  );
  await page.reload();

  await page
    .getByRole("combobox", { name: "Method to perform" })
    .getByText("update_actor")
    .waitFor();
  expect(await page.getByRole("textbox", { name: "data" }).inputValue()).toBe(
    '{"profile": {"name": "half',
  );
});

test("a refused call shows the server's detail in 'Result' and never the word accepted", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("refused");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  await chooseOption(page, "Method to perform", "update_actor");
  // A data field named actor replaces the current actor (docs/console-guide.md#perform: actor plus the
  // data fields).
  await page
    .getByRole("textbox", { name: "data" })
    .fill('{"actor": "https://elsewhere.example/actor/x"}');
  await page.getByRole("button", { name: "Perform" }).click();

  const result = page.getByRole("region", { name: "Result" });
  await result
    .getByRole("alert")
    .getByText(/update_actor: failed \(HTTP 400\)/)
    .waitFor();
  expect(await result.innerText()).toContain("actor is not an actor of this account");
  expect((await result.innerText()).toLowerCase()).not.toContain("accepted");
});

test("'History' keeps calls across a reload; 'Run again' sends the same body, 'Edit' fills the form", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor("historian");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  await chooseOption(page, "Method to perform", "update_actor");
  const data = page.getByRole("textbox", { name: "data" });
  await data.fill('{"profile": {"summary": "first"}}');
  await page.getByRole("button", { name: "Perform" }).click();
  const history = page.getByRole("list", { name: "History" });
  await history.getByRole("listitem").first().waitFor();

  await page.reload();
  const requests = recordFeRequests(page);
  const item = history.getByRole("listitem");
  await eventually(() => item.count()).toBe(1);
  expect(await item.innerText()).toMatch(/update_actor as historian/);
  await item.getByRole("button", { name: "Run again" }).click();
  await eventually(() => triggerPosts(requests).length).toBe(1);
  expect(triggerPosts(requests)[0].postDataJSON()).toEqual({
    actor: actor.id,
    profile: { summary: "first" },
  });
  await eventually(() => item.count()).toBe(2);

  await data.fill("{}");
  await item.first().getByRole("button", { name: "Edit" }).click();
  expect(JSON.parse(await data.inputValue())).toEqual({ profile: { summary: "first" } });
  expect(triggerPosts(requests)).toHaveLength(1);
});
