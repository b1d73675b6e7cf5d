import type { Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import {
  badgeCount,
  chooseOption,
  eventually,
  openFromDrawer,
  recordFeRequests,
  signIn,
} from "./harness/console-ui.ts";
import { buildCreateNote, signInApi } from "./harness/fe-api.ts";

// Issue 33, items 4-6 (docs/perform.md): Perform checks the data box against the method's schema
// before sending, "Put it under data", Open in Perform as the actor acting with a warning when
// data.actor is someone else, and the Result brought into view, against Corral's own server.

const dataBox = (page: Page) => page.getByRole("textbox", { name: "data" });
const performButton = (page: Page) => page.getByRole("button", { name: "Perform" });
const problems = (page: Page) =>
  page.getByRole("list", { name: "Problems with the data" }).getByRole("listitem");
const triggerPosts = (requests: ReturnType<typeof recordFeRequests>) =>
  requests.filter((r) => new URL(r.url()).pathname.startsWith("/fe/actor/trigger/"));

test("a bare activity is stopped in the browser by its path in words; 'Put it under data' wraps it and it is sent", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const sender = await api.createActor("checked");
  const receiver = await api.createActor("reader");
  await signIn(page, account);
  const requests = recordFeRequests(page);
  await openFromDrawer(page, "Perform");
  await chooseOption(page, "Method to perform", "send_message");
  const note = buildCreateNote(sender.id, receiver.id, "typed as the whole box");

  await dataBox(page).fill(JSON.stringify(note, null, 2));
  await eventually(() => problems(page).allInnerTexts()).toEqual(["data is missing"]);
  expect(await performButton(page).isDisabled()).toBe(true);
  await dataBox(page).fill('{"data": []}');
  await eventually(() => problems(page).allInnerTexts()).toEqual([
    "data must be an object, not an array",
  ]);
  expect(await performButton(page).isDisabled()).toBe(true);
  await dataBox(page).fill(JSON.stringify(note, null, 2));

  await page.getByRole("button", { name: "Put it under data" }).click();
  expect(JSON.parse(await dataBox(page).inputValue())).toEqual({ data: note });
  await page.getByText("Checked against send_message's schema: no problems.").waitFor();
  expect(await problems(page).count()).toBe(0);
  expect(await page.getByRole("button", { name: "Put it under data" }).count()).toBe(0);
  expect(triggerPosts(requests)).toHaveLength(0);

  await performButton(page).click();
  await eventually(() => triggerPosts(requests).length).toBe(1);
  expect(triggerPosts(requests)[0]!.postDataJSON()).toEqual({ actor: sender.id, data: note });
  await eventually(() => badgeCount(page, "Incoming"), 20_000).toBe(1);
});

test("update_actor's schema is checked too: each problem by its path, nothing sent until it passes", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("profiled");
  await signIn(page, account);
  const requests = recordFeRequests(page);
  await openFromDrawer(page, "Perform");
  await chooseOption(page, "Method to perform", "update_actor");
  await dataBox(page).fill('{"profile": "oops", "autoFollow": "yes"}');
  await eventually(() => problems(page).allInnerTexts()).toEqual([
    "profile must be an object, not a string",
    "autoFollow must be true or false, not a string",
  ]);
  expect(await performButton(page).isDisabled()).toBe(true);
  // A bare activity is not offered "Put it under data" for a method that takes no data.
  await dataBox(page).fill('{"type": "Note"}');
  await page.getByText("Checked against update_actor's schema: no problems.").waitFor();
  expect(await page.getByRole("button", { name: "Put it under data" }).count()).toBe(0);
  expect(triggerPosts(requests)).toHaveLength(0);
});

test("Open in Perform on bob's incoming Note sends it as alice, who is acting; data.actor naming bob is warned about", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const bob = await api.createActor(`bob_${account.name}`);
  const alice = await api.createActor(`alice_${account.name}`);
  const carol = await api.createActor(`carol_${account.name}`);
  await signIn(page, account);
  await api.trigger("send_message", {
    actor: bob.id,
    data: buildCreateNote(bob.id, alice.id, "Hello alice"),
  });
  await eventually(() => badgeCount(page, "Incoming"), 20_000).toBe(1);
  await openFromDrawer(page, "Incoming");
  await page
    .getByTestId("stream-message")
    .first()
    .getByRole("button", { name: "Open in Perform" })
    .click();
  await page.waitForURL((url) => url.pathname === "/perform");
  await eventually(() => page.getByTestId("current-actor").innerText()).toContain(alice.id);

  const opened = JSON.parse(await dataBox(page).inputValue()) as {
    data: { actor: string; object: { attributedTo: string }; to: string[] };
  };
  expect(opened.data.actor).toBe(alice.id);
  expect(opened.data.object.attributedTo).toBe(alice.id);
  expect(await page.getByText(/the actor you act as/).count()).toBe(0);

  // Before sending: naming bob again is warned about in words, and Perform stays possible.
  const forged = { data: { ...opened.data, actor: bob.id } };
  await dataBox(page).fill(JSON.stringify(forged, null, 2));
  const warning = page.getByText(/the actor you act as/);
  await warning.waitFor();
  expect(await warning.innerText()).toContain(`data.actor is ${bob.id}, not alice_`);
  expect(await performButton(page).isEnabled()).toBe(true);

  // As opened, addressed to carol: carol's inbox accepts it (signed by alice, claiming alice).
  const toCarol = {
    data: { ...opened.data, to: [carol.id], object: { ...opened.data.object, to: [carol.id] } },
  };
  await dataBox(page).fill(JSON.stringify(toCarol, null, 2));
  await eventually(() => warning.count()).toBe(0);
  await performButton(page).click();
  const result = page.getByRole("region", { name: "Result" });
  await eventually(() => result.getByTestId("trigger-state").innerText(), 20_000).toMatch(
    /^State: done: 1 delivered$/,
  );
});

test("after Perform at 1400×900 the Result is in view with focus on its heading, the Resulting output preview kept", async ({
  page,
  account,
  corral,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("scroller");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  await chooseOption(page, "Method to perform", "update_actor");
  // A long box (one property a line), as a real profile update is: the form fills the window.
  const fields = Object.fromEntries(
    Array.from({ length: 40 }, (_, index) => [`field${index}`, `value ${index}`]),
  );
  await dataBox(page).fill(JSON.stringify({ profile: { summary: "long", ...fields } }, null, 2));
  await page.getByRole("heading", { name: "Resulting output" }).waitFor();
  await performButton(page).click();

  const heading = page.getByRole("region", { name: "Result" }).getByRole("heading", {
    name: "Result",
  });
  const inView = async () => {
    const box = await heading.boundingBox();
    // Below the fixed top bar and above the bottom of the window.
    return box !== null && box.y >= 56 && box.y + box.height <= 900;
  };
  await eventually(inView).toBe(true);
  expect(await heading.evaluate((node) => document.activeElement === node)).toBe(true);
  await page.getByRole("heading", { name: "Resulting output" }).waitFor();
});
