import { expect, test } from "./harness/fixtures.ts";
import {
  badgeCount,
  chooseOption,
  eventually,
  listOptions,
  recordFeRequests,
  signIn,
  textOutsideTrees,
  openFromDrawer,
} from "./harness/console-ui.ts";
import { buildCreateNote, signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#perform: the page, its request, and the validation of its data.

const METHODS = [
  "send_message",
  "update_actor",
  "delete_actor",
  "publish_activity",
  "publish_object",
];

test("shows the current actor and lists the methods by routing key in 'Method to perform'", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor("performer");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  // Said by the page itself, not only inside the payload preview.
  await eventually(() => textOutsideTrees(page)).toContain(actor.id);
  expect((await listOptions(page, "Method to perform")).sort()).toEqual([...METHODS].sort());
  await page.getByRole("textbox", { name: "data" }).waitFor();
  await page.getByRole("button", { name: "Perform" }).waitFor();
});

test("previews the payload; invalid JSON shows '... typing ...' and keeps the last valid parse", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor("typist");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  const data = page.getByRole("textbox", { name: "data" });
  const preview = page.locator("main .json-tree");
  await data.fill('{"summary": "first draft"}');
  await page.getByRole("heading", { name: "Resulting output" }).waitFor();
  await preview.getByText("first draft").first().waitFor();
  await preview.getByText(actor.id).first().waitFor();

  await data.fill('{"summary": "second dra');
  await page.getByRole("heading", { name: "... typing ..." }).waitFor();
  expect(await page.getByRole("heading", { name: "Resulting output" }).count()).toBe(0);
  // The preview still shows the last text that parsed.
  expect(await preview.getByText("first draft").count()).toBeGreaterThan(0);
  expect(await preview.getByText("second dra").count()).toBe(0);

  await data.fill('{"summary": "second draft"}');
  await page.getByRole("heading", { name: "Resulting output" }).waitFor();
  await preview.getByText("second draft").first().waitFor();
});

test("the Resulting output preview is a JSON tree (keys sorted, like every JSON shown)", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("sorter");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  await page.getByRole("textbox", { name: "data" }).fill('{"zulu": 1, "alpha": 2}');
  await page.getByRole("heading", { name: "Resulting output" }).waitFor();
  const text = await page.locator("main .json-tree").innerText();
  const order = ["actor", "alpha", "zulu"].map((key) => text.indexOf(`${key}:`));
  expect(order.every((index) => index >= 0)).toBe(true);
  expect(order).toEqual([...order].sort((a, b) => a - b));
});

test("Perform posts the actor plus the data fields to /actor/trigger/{method}; the message appears on the streams", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const sender = await api.createActor("sender");
  const receiver = await api.createActor("receiver");
  const requests = recordFeRequests(page);
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  await eventually(() => badgeCount(page, "Outgoing")).toBe(0);
  const note = buildCreateNote(sender.id, receiver.id, "hello from Perform");
  await chooseOption(page, "Method to perform", "send_message");
  await page.getByRole("textbox", { name: "data" }).fill(JSON.stringify({ data: note }));
  await page.getByRole("button", { name: "Perform" }).click();

  await eventually(
    () => requests.filter((r) => r.url().endsWith("/fe/actor/trigger/send_message")).length,
  ).toBe(1);
  const trigger = requests.find((r) => r.url().endsWith("/fe/actor/trigger/send_message"))!;
  expect(trigger.postDataJSON()).toEqual({ actor: sender.id, data: note });
  await eventually(() => badgeCount(page, "Outgoing")).toBe(1);
  // Real federation: the server delivers the signed Create to the receiver's inbox.
  await eventually(() => badgeCount(page, "Incoming"), 20_000).toBe(1);
});

test("a malformed Perform is refused with the server's reasons in Result, and nothing runs", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("clumsy");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  await chooseOption(page, "Method to perform", "send_message");
  // send_message without its data field fails the method's schema: the browser says so and sends
  // nothing (issue 33, item 4) ...
  await page.getByRole("textbox", { name: "data" }).fill("{}");
  await page
    .getByRole("list", { name: "Problems with the data" })
    .getByText("data is missing")
    .waitFor();
  expect(await page.getByRole("button", { name: "Perform" }).isDisabled()).toBe(true);
  // ... and what no published schema can say (publish_activity's data.actor, when given, must be
  // the actor acting), the server refuses with 422 before anything runs.
  await chooseOption(page, "Method to perform", "publish_activity");
  await page
    .getByRole("textbox", { name: "data" })
    .fill('{"data": {"type": "Like", "actor": "https://elsewhere.example/x"}}');
  await page.getByRole("button", { name: "Perform" }).click();
  const result = page.getByRole("region", { name: "Result" });
  await result.getByText(/HTTP 422/).waitFor();
  await result.getByText(/body\.data/).waitFor();
  expect(await result.textContent()).not.toMatch(/accepted/i);
  expect(await badgeCount(page, "Error")).toBe(0);
});

test("a Perform the server accepts but cannot carry out appears on the Error stream", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("stranded");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  await eventually(() => badgeCount(page, "Error")).toBe(0);
  await chooseOption(page, "Method to perform", "send_message");
  // A target nobody answers for: refused before sending, reported on the error stream.
  await page
    .getByRole("textbox", { name: "data" })
    .fill(JSON.stringify({ data: { type: "Note", to: ["http://127.0.0.1:1/nobody"] } }));
  await page.getByRole("button", { name: "Perform" }).click();
  await eventually(() => badgeCount(page, "Error")).toBe(1);
  await openFromDrawer(page, "Error");
  await page.getByText('"send_message"').first().waitFor();
});
