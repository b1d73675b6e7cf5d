import type { Page } from "playwright-core";
import { downloadedText } from "./harness/chromium.ts";
import { expect, test } from "./harness/fixtures.ts";
import { badgeCount, chooseOption, eventually, openFromDrawer } from "./harness/console-ui.ts";
import { buildCreateNote } from "./harness/fe-api.ts";
import {
  causeErrors,
  messageTrees,
  sendActivities,
  signInWithTwoActors,
  type Setup,
} from "./harness/stream-events.ts";

// docs/console-guide.md#streams and #keys: each control, against the real server's messages.

const shownCount = (page: Page) => page.getByTestId("shown-count").innerText();
const search = (page: Page) => page.getByRole("searchbox", { name: "Search messages" });

/** Leaves every field, as a person clicking on an empty part of the page would. */
async function blurFocus(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

async function sendNotes({ api, sender, receiver }: Setup, texts: string[]) {
  for (const text of texts)
    await api.trigger("send_message", {
      actor: sender,
      data: buildCreateNote(sender, receiver, text),
    });
}

test("each message starts with a summary line: time, type and who", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Outgoing");
  await sendActivities(setup, ["Like"]);
  const summary = page.getByTestId("message-summary").first();
  await eventually(() => summary.innerText()).toMatch(
    new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\s+Like\\s+@s_${account.name}@${new URL(corral.url).host}`),
  );
});

test("Search messages finds a Note by a word in its content, with the type filter, N of M, / and Escape", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Outgoing");
  await sendNotes(setup, ["a quiet morning", "the Zebra crossed", "evening"]);
  await sendActivities(setup, ["Like"]);
  await eventually(() => shownCount(page)).toBe("4 of 4");

  await blurFocus(page);
  await page.keyboard.press("/");
  expect(await search(page).evaluate((field) => field === document.activeElement)).toBe(true);
  await page.keyboard.type("zEBRA");
  await eventually(() => shownCount(page)).toBe("1 of 4");
  expect(await messageTrees(page).count()).toBe(1);
  await page.getByText('"the Zebra crossed"').first().waitFor();

  await chooseOption(page, "Select Type of Activity", "Like");
  await eventually(() => shownCount(page)).toBe("0 of 4");
  await page.getByText("Nothing to display").waitFor();
  await chooseOption(page, "Select Type of Activity", "Create");
  await eventually(() => shownCount(page)).toBe("1 of 4");

  await search(page).focus();
  await page.keyboard.press("Escape");
  expect(await search(page).inputValue()).toBe("");
  await eventually(() => shownCount(page)).toBe("3 of 4");
});

test("Pause freezes the list while the badge keeps counting; N new and Resume show everything", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Error");
  await causeErrors(setup, 1);
  await eventually(() => messageTrees(page).count()).toBe(1);
  await page.getByRole("button", { name: "Pause" }).click();
  await causeErrors(setup, 3);
  await eventually(() => badgeCount(page, "Error")).toBe(4);
  await page.getByRole("button", { name: "3 new" }).waitFor();
  expect(await messageTrees(page).count()).toBe(1);
  await page.getByRole("button", { name: "3 new" }).click();
  await eventually(() => messageTrees(page).count()).toBe(4);

  await blurFocus(page);
  await page.keyboard.press("p");
  await page.getByRole("button", { name: "Resume" }).waitFor();
  await causeErrors(setup, 1);
  await page.getByRole("button", { name: "1 new" }).waitFor();
  await page.getByRole("button", { name: "Resume" }).click();
  await eventually(() => messageTrees(page).count()).toBe(5);
});

test("Compact and Newest first change the list and are remembered across a reload", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Outgoing");
  await sendNotes(setup, ["older note", "newer note"]);
  await eventually(() => messageTrees(page).count()).toBe(2);
  await page.getByRole("switch", { name: "Newest first" }).check();
  await page.getByRole("switch", { name: "Compact" }).check();
  await eventually(() => messageTrees(page).count()).toBe(0);
  await page.reload();
  expect(await page.getByRole("switch", { name: "Compact" }).isChecked()).toBe(true);
  expect(await page.getByRole("switch", { name: "Newest first" }).isChecked()).toBe(true);
  // Compact: one line per message, the newest on top, its tree opened by a click.
  const firstLine = page.getByTestId("stream-message").first().locator(".stream-message-toggle");
  await eventually(() => firstLine.innerText()).toContain('"newer note"');
  expect(await messageTrees(page).count()).toBe(0);
  await firstLine.click();
  const firstTree = messageTrees(page).first();
  await firstTree.getByText('"newer note"').first().waitFor();
  // A click on a collapsed row's {…} expands it too, not only a click on its key.
  await firstTree.getByRole("button", { name: "Collapse raw" }).click();
  const rawRow = firstTree.getByRole("button", { name: "Expand raw" }).locator("..");
  await rawRow.getByText("{…}").click();
  await firstTree.getByRole("button", { name: "Collapse raw" }).waitFor();
});

test("Export downloads the listed messages as JSON and NDJSON with signatures redacted", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Outgoing");
  const signed = {
    ...buildCreateNote(setup.sender, setup.receiver, "zebra note"),
    signature: { type: "RsaSignature2017", signatureValue: "SECRET-SIGNATURE" },
  };
  await setup.api.trigger("send_message", { actor: setup.sender, data: signed });
  await sendNotes(setup, ["plain note"]);
  await eventually(() => shownCount(page)).toBe("2 of 2");
  await search(page).fill("zebra note");
  await eventually(() => shownCount(page)).toBe("1 of 2");

  for (const format of ["JSON", "NDJSON"] as const) {
    await page.getByRole("button", { name: "Export" }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: format, exact: true }).click(),
    ]);
    const extension = format.toLowerCase();
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^corral-outgoing-\\d{8}-\\d{6}\\.${extension}$`),
    );
    const text = await downloadedText(download);
    expect(text).not.toContain("SECRET-SIGNATURE");
    expect(text).not.toContain("plain note");
    const messages = (
      format === "JSON"
        ? JSON.parse(text)
        : text
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line))
    ) as Array<{ data: { raw: { signature: unknown } } }>;
    expect(messages).toHaveLength(1);
    expect(messages[0]!.data.raw.signature).toBe("[redacted]");
  }
});

test("Copy JSON puts the message, pretty-printed, on the clipboard", async ({
  page,
  account,
  corral,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Error");
  await causeErrors(setup, 1);
  await page.getByRole("button", { name: "Copy JSON" }).click();
  await page.getByText("Copied").waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('\n  "routing_key": "no_such_method_0"');
});

test("All merges the three streams in arrival order, labelled, with search; ? lists the shortcuts", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await causeErrors(setup, 1);
  await eventually(() => badgeCount(page, "Error")).toBe(1);
  await sendActivities(setup, ["Announce"]);
  await eventually(() => badgeCount(page, "Incoming"), 20_000).toBe(1);
  await openFromDrawer(page, "All");
  expect(new URL(page.url()).pathname).toBe("/stream/all");
  await eventually(() => shownCount(page)).toBe("3 of 3");
  const labels = await page
    .getByTestId("message-summary")
    .evaluateAll((nodes) => nodes.map((node) => node.querySelector(".MuiChip-label")?.textContent));
  // The error arrived first; which of the send's two messages the browser got first is the
  // server's business, but each label is there once.
  expect(labels[0]).toBe("Error");
  expect(labels.slice(1).sort()).toEqual(["Incoming", "Outgoing"]);
  const times = await page
    .getByTestId("message-summary")
    .evaluateAll((nodes) => nodes.map((node) => /\d\d:\d\d:\d\d/.exec(node.textContent!)![0]));
  expect([...times].sort()).toEqual(times);
  await search(page).fill("no_such_method");
  await eventually(() => shownCount(page)).toBe("1 of 3");

  await blurFocus(page);
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await dialog.waitFor();
  for (const key of ["/", "p", "Escape", "?"])
    await dialog.getByText(key, { exact: true }).waitFor();
});
