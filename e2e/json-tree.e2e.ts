import type { Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import { eventually, signIn, openFromDrawer } from "./harness/console-ui.ts";
import { buildCreateNote, signInApi } from "./harness/fe-api.ts";
import type { Account } from "./harness/fixtures.ts";
import type { Corral } from "./harness/corral-server.ts";

// docs/console-guide.md#json-trees: everywhere, navigation only for absolute URLs, groups of 100.
// The trees here show real documents: an actor looked up on the server.

async function lookUpNewActor(page: Page, corral: Corral, account: Account, handle: string) {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor(handle);
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(actor.id)}`);
  await page.getByText(`"${handle}"`).first().waitFor();
  return actor;
}

/** The keys directly under `parent` (a top-level key of the tree), in the order shown. */
function keysUnder(page: Page, parent: string): Promise<string[]> {
  return page
    .locator("main .json-tree")
    .first()
    .evaluate((tree, parentKey) => {
      const rows = [...tree.querySelectorAll<HTMLElement>(".jt-row")].map((row) => ({
        indent: parseFloat(getComputedStyle(row).paddingLeft),
        key: (row.innerText.match(/^[▸▾]?\s*([^:\s]+)/) ?? [])[1] ?? "",
      }));
      const start = rows.findIndex((row) => row.indent === 0 && row.key === parentKey);
      const keys: string[] = [];
      const childIndent = rows[start + 1]?.indent ?? 0;
      for (const row of rows.slice(start + 1)) {
        if (row.indent <= rows[start]!.indent) break;
        if (row.indent === childIndent) keys.push(row.key);
      }
      return keys;
    }, parent);
}

test("keys are sorted and no data type labels are shown", async ({ page, account, corral }) => {
  const actor = await lookUpNewActor(page, corral, account, "sorted");
  // A lookup answers {raw, parsed}; raw is the actor document as served.
  const keys = await keysUnder(page, "raw");
  expect(keys.length).toBeGreaterThan(5);
  expect(keys).toEqual(expect.arrayContaining(["@context", "id", "inbox", "publicKey", "type"]));
  expect(keys).toEqual([...keys].sort());
  const text = await page.locator("main .json-tree").first().innerText();
  expect(text).not.toMatch(/\b(string|int|float|bool|boolean)\b/);
  expect(text).toContain(actor.id);
});

test("@context and publicKey start collapsed and open on click", async ({
  page,
  account,
  corral,
}) => {
  await lookUpNewActor(page, corral, account, "collapsed");
  const publicKey = page.getByRole("button", { name: "Expand publicKey" }).first();
  expect(await publicKey.getAttribute("aria-expanded")).toBe("false");
  const context = page.getByRole("button", { name: "Expand @context" }).first();
  expect(await context.getAttribute("aria-expanded")).toBe("false");
  expect(await page.getByText("publicKeyPem").count()).toBe(0);
  expect(await page.getByText("https://www.w3.org/ns/activitystreams").count()).toBe(0);
  await publicKey.click();
  await page.getByText("publicKeyPem").first().waitFor();
  await page.getByRole("button", { name: "Collapse publicKey" }).first().click();
  await page.getByText("publicKeyPem").waitFor({ state: "hidden" });
});

test("clicking a URL value opens /lookup?uri=…; clicking any other value does nothing", async ({
  page,
  account,
  corral,
}) => {
  const actor = await lookUpNewActor(page, corral, account, "clicker");
  const before = page.url();
  await page.getByText('"Person"').first().click();
  await page.getByText('"clicker"').first().click();
  await page.waitForTimeout(300);
  expect(page.url()).toBe(before);

  const inbox = String(actor.inbox);
  await page.locator(".json-tree").getByRole("link", { name: inbox, exact: true }).first().click();
  await eventually(() => new URL(page.url()).searchParams.get("uri")).toBe(inbox);
  expect(new URL(page.url()).pathname).toBe("/lookup");
});

test("the Info tree's URLs open the Lookup page too", async ({ page, account, corral }) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("infolink");
  await signIn(page, account);
  await page
    .locator(".json-tree")
    .getByRole("link", { name: corral.url, exact: true })
    .first()
    .click();
  await eventually(() => page.url()).toBe(
    `${corral.url}/lookup?uri=${encodeURIComponent(corral.url)}`,
  );
});

test("signature and proof start collapsed too (in a stream message carrying both)", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const sender = (await api.createActor("signer")).id;
  const receiver = (await api.createActor("verifier")).id;
  await signIn(page, account);
  await openFromDrawer(page, "Outgoing");
  const data = {
    ...buildCreateNote(sender, receiver),
    signature: { type: "RsaSignature2017", signatureValue: "signature-value-e2e" },
    proof: { type: "DataIntegrityProof", proofValue: "proof-value-e2e" },
  };
  await api.trigger("send_message", { actor: sender, data });
  await page.getByRole("button", { name: "Expand signature" }).first().waitFor();
  await page.getByRole("button", { name: "Expand proof" }).first().waitFor();
  expect(await page.getByText("signature-value-e2e").count()).toBe(0);
  expect(await page.getByText("proof-value-e2e").count()).toBe(0);
  await page.getByRole("button", { name: "Expand proof" }).first().click();
  await page.getByText("proof-value-e2e").first().waitFor();
});

test("arrays longer than 100 items are grouped by hundreds", async ({ page, account, corral }) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const sender = (await api.createActor("tagger")).id;
  const receiver = (await api.createActor("tagged")).id;
  await signIn(page, account);
  await openFromDrawer(page, "Outgoing");
  const tags = Array.from({ length: 150 }, (_, index) => `tag-${index}`);
  await api.trigger("send_message", {
    actor: sender,
    data: { ...buildCreateNote(sender, receiver), tag: tags },
  });
  const firstGroup = page.getByRole("button", { name: /^Expand \[0\s*…\s*99\]$/ }).first();
  await firstGroup.waitFor();
  await page
    .getByRole("button", { name: /^Expand \[100\s*…\s*149\]$/ })
    .first()
    .waitFor();
  expect(await page.getByText('"tag-120"').count()).toBe(0);
  await page
    .getByRole("button", { name: /^Expand \[100\s*…\s*149\]$/ })
    .first()
    .click();
  await page.getByText('"tag-120"').first().waitFor();
});
