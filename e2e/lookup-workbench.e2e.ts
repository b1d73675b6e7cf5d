import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { expect, test } from "./harness/fixtures.ts";
import { eventually, recordFeRequests, signIn, userLookups } from "./harness/console-ui.ts";
import {
  nestedDocumentText,
  startDocumentServer,
  type DocumentServer,
} from "./harness/document-server.ts";
import { signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#lookup and #json-trees: the real server looks documents up, some of them on a
// remote stand-in (harness/document-server.ts) that answers when the test lets it.

let remote: DocumentServer;
beforeAll(async () => {
  remote = await startDocumentServer();
});
afterAll(() => remote.close());

function uriField(page: Page) {
  return page.getByRole("textbox", { name: "URI" });
}

function recentLookups(page: Page) {
  return page.getByRole("region", { name: "Recent lookups" });
}

test("Enter in URI runs the lookup", async ({ page, account, corral }) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const me = await api.createActor("enterer");
  const target = await api.createActor("entered");
  const requests = recordFeRequests(page);
  await signIn(page, account);
  await page.goto("/lookup");
  await uriField(page).fill(target.id);
  await uriField(page).press("Enter");
  await page.locator("main .json-tree").getByText('"entered"').first().waitFor();
  expect(new URL(page.url()).searchParams.get("uri")).toBe(target.id);
  const lookups = userLookups(requests);
  expect(lookups.map((request) => request.postDataJSON())).toEqual([
    { uri: target.id, actorId: me.id },
  ]);
});

test("a slow lookup shows a progress bar and not the previous result, then its own", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("waiter");
  const first = await api.createActor("previous");
  const slowUri = `${remote.url}/slow/note`;
  remote.serve("/slow/note", { id: slowUri, type: "Note", content: "arrived slowly" });
  const release = remote.hold("/slow/note");
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(first.id)}`);
  await page.getByText('"previous"').first().waitFor();

  await uriField(page).fill(slowUri);
  await uriField(page).press("Enter");

  await page.getByRole("progressbar").waitFor();
  expect(await page.getByText('"previous"').count()).toBe(0);
  expect(await page.locator("main .json-tree").count()).toBe(0);
  release();
  await page.getByText('"arrived slowly"').first().waitFor();
  await page.getByRole("progressbar").waitFor({ state: "detached" });
});

test("a failed lookup shows the server's reason as text", async ({ page, account, corral }) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("failer");
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(`${remote.url}/missing`)}`);
  const alert = page.getByRole("alert");
  await alert.waitFor();
  expect(await alert.textContent()).toMatch(/missing answered 404 Not Found: no such document/);
});

test("Recent lookups are kept across a reload, newest first, and a click runs one again", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("recaller");
  const one = await api.createActor("recalled1");
  const two = await api.createActor("recalled2");
  const requests = recordFeRequests(page);
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(one.id)}`);
  await page.getByText('"recalled1"').first().waitFor();
  await uriField(page).fill(two.id);
  await uriField(page).press("Enter");
  await page.getByText('"recalled2"').first().waitFor();

  await page.goto("/lookup");
  const items = recentLookups(page).getByRole("listitem");
  await eventually(() => items.count()).toBe(2);
  expect(await items.nth(0).textContent()).toContain(two.id);
  expect(await items.nth(1).textContent()).toContain(one.id);
  const before = requests.length;
  await recentLookups(page).getByRole("button", { name: one.id }).click();

  await page.getByText('"recalled1"').first().waitFor();
  expect(await uriField(page).inputValue()).toBe(one.id);
  const again = userLookups(requests.slice(before));
  expect(again.map((request) => request.postDataJSON().uri)).toEqual([one.id]);
});

test("a failed lookup is named by its kind; the curl line keeps the scheme the server used", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("kinds");
  await signIn(page, account);
  const alert = page.getByRole("alert");

  await page.goto(`/lookup?uri=${encodeURIComponent("http://nowhere.invalid/x")}`);
  await eventually(() => alert.textContent()).toMatch(/^Could not resolve host nowhere\.invalid/);
  expect(await alert.textContent()).not.toContain("Not found");

  await page.goto(`/lookup?uri=${encodeURIComponent(`${remote.url}/missing`)}`);
  await eventually(() => alert.textContent()).toMatch(/^404 Not Found/);

  // A handle on a plain-http server (the stand-in on loopback): WebFinger was asked over http.
  const remoteHost = new URL(remote.url).host;
  const handle = `@nobody@${remoteHost}`;
  await uriField(page).fill(handle);
  await uriField(page).press("Enter");
  await eventually(() => alert.textContent()).toMatch(/^404 Not Found/);
  expect(await page.getByTestId("curl-example").textContent()).toBe(
    `curl -H 'Accept: application/jrd+json' 'http://${remoteHost}/.well-known/webfinger?resource=${encodeURIComponent(`acct:nobody@${remoteHost}`)}'`,
  );
});

test("Compare shows an actor before and after update_actor, one line per changed path", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor("changing");
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(actor.id)}`);
  await page.getByText('"changing"').first().waitFor();
  await api.trigger("update_actor", { actor: actor.id, profile: { name: "Changed Name" } });
  await eventually(async () => {
    await uriField(page).press("Enter");
    return page.getByText('"Changed Name"').count();
  }).toBeGreaterThan(0);

  const compare = recentLookups(page).getByRole("button", { name: "Compare" });
  await eventually(() => compare.count()).toBe(2);
  await compare.nth(1).click();
  await compare.nth(0).click();

  const lines = page.getByRole("list", { name: "Changed paths" }).getByRole("listitem");
  await lines.first().waitFor();
  expect(await lines.allTextContents()).toContain('added name: "Changed Name"');
});

test("the curl line for a handle requests the id it resolved to", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor("handled");
  await signIn(page, account);
  await page.goto("/lookup");
  const handle = `@handled@${new URL(corral.url).host}`;
  await uriField(page).fill(handle);
  await uriField(page).press("Enter");
  await page.getByText('"handled"').first().waitFor();
  const curl = page.getByTestId("curl-example");
  await eventually(() => curl.textContent()).toBe(
    `curl -H 'Accept: application/activity+json' '${actor.id}'`,
  );
});

test("a document nested 3,000 levels deep: the server refuses it with the reason; typed into Perform it renders as a tree", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("diver");
  remote.serve("/deep", nestedDocumentText(3_000));
  await signIn(page, account);
  // docs/server-guide.md#untrusted-input: a looked-up document deeper than 256 levels is refused, with
  // the reason.
  await page.goto(`/lookup?uri=${encodeURIComponent(`${remote.url}/deep`)}`);
  await page
    .getByText(/nested too deeply/)
    .first()
    .waitFor();
  expect(await page.getByText("Something went wrong").count()).toBe(0);
  // The console itself shows any depth: the same document as Perform's data preview.
  await page.goto("/perform");
  await page.getByRole("textbox", { name: "data" }).fill(nestedDocumentText(3_000));
  await page.getByRole("heading", { name: "Resulting output" }).waitFor();
  expect(await page.getByText("Something went wrong").count()).toBe(0);
  const tree = page.locator("main .json-tree").last();
  await tree.locator(".jt-scroll").evaluate((box) => (box.scrollTop = box.scrollHeight));
  await tree.getByText('"bottom"').waitFor();
});

test("a document nested 100,000 levels deep renders as a tree", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("abyss");
  // Deeper than the server's own JSON.stringify goes: played to the browser as the answer.
  await page.route("**/fe/actor/lookup", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: `{"raw":${nestedDocumentText(100_000)}}`,
    }),
  );
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent("https://deep.example/abyss")}`);
  await page.getByRole("button", { name: "Collapse raw" }).waitFor();
  expect(await page.getByText("Something went wrong").count()).toBe(0);
  const tree = page.locator("main .json-tree");
  await tree.locator(".jt-scroll").evaluate((box) => (box.scrollTop = box.scrollHeight));
  await tree.getByText('"bottom"').waitFor();
});

test("Find in document opens, counts and scrolls to the matches in a large document", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("finder");
  const uri = `${remote.url}/large`;
  const fields = Object.fromEntries(
    Array.from({ length: 300 }, (_, i) => [`field${String(i).padStart(3, "0")}`, i]),
  );
  remote.serve("/large", {
    id: uri,
    type: "Person",
    ...fields,
    publicKey: { id: `${uri}#key`, owner: uri, publicKeyPem: "PEM with a needle inside" },
    zzz: "the last NEEDLE",
  });
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(uri)}`);
  const find = page.getByRole("textbox", { name: "Find in document" });
  await find.fill("needle");

  // The answer holds the document as fetched ("raw") and as understood ("parsed", muck_out's
  // normalisation, which makes nothing of this bare Person: {}), so the matches are raw's two.
  await page.getByRole("status").filter({ hasText: "2 matches" }).waitFor();
  const current = page.locator("main .jt-match-current");
  // The collapsed publicKey of the raw document was opened to show its match, which is on screen.
  await eventually(() => current.textContent()).toBe('publicKeyPem: "PEM with a needle inside"');
  expect(await page.getByRole("button", { name: "Collapse publicKey" }).count()).toBeGreaterThan(0);
  await find.press("Enter");
  await eventually(() => current.textContent()).toBe('zzz: "the last NEEDLE"');
  const box = await page.locator("main .jt-scroll").boundingBox();
  const row = await current.boundingBox();
  expect(row!.y).toBeGreaterThanOrEqual(box!.y);
  expect(row!.y + row!.height).toBeLessThanOrEqual(box!.y + box!.height);
});

test("Compare on two large documents computes the difference in a Web Worker", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("weigher");
  const uri = `${remote.url}/huge`;
  const fields = Object.fromEntries(Array.from({ length: 6_000 }, (_, i) => [`f${i}`, i]));
  remote.serve("/huge", { id: uri, type: "Collection", ...fields });
  const workers: string[] = [];
  page.on("worker", (worker) => workers.push(worker.url()));
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(uri)}`);
  await page.getByText('"Collection"').first().waitFor();
  remote.serve("/huge", { id: uri, type: "Collection", ...fields, f17: "changed", added: true });
  await uriField(page).press("Enter");
  await page.getByText("6003 keys").waitFor(); // f17 itself is far below, not rendered

  const compare = recentLookups(page).getByRole("button", { name: "Compare" });
  await eventually(() => compare.count()).toBe(2);
  await compare.nth(0).click();
  await compare.nth(1).click();

  const lines = page.getByRole("list", { name: "Changed paths" }).getByRole("listitem");
  await lines.first().waitFor();
  expect(await lines.allTextContents()).toEqual([
    "added added: true",
    'changed f17: 17 → "changed"',
  ]);
  expect(workers.some((url) => /diff-worker/.test(url))).toBe(true);
});

test("Show exchange lists the signed request as sent, the redirect, and each answer with its timings", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const me = await api.createActor("exchanger");
  const target = `${remote.url}/exchanged/note`;
  remote.serve("/exchanged/note", { id: target, type: "Note", content: "after a redirect" });
  remote.redirect("/moved/note", target);
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(`${remote.url}/moved/note`)}`);
  await page.getByText('"after a redirect"').first().waitFor();
  // The tree is the document's answer; the exchange is behind its own button.
  expect(await page.locator("main .json-tree").getByText('"exchange"').count()).toBe(0);
  await page.getByRole("button", { name: "Show exchange" }).click();
  const exchange = page.getByRole("region", { name: "Exchange" });
  const first = exchange.getByRole("article", { name: "Request 1" });
  const second = exchange.getByRole("article", { name: "Request 2" });
  await second.waitFor();
  expect(await first.getByRole("heading").textContent()).toBe(`1. GET ${remote.url}/moved/note`);
  expect(await first.textContent()).toContain(`Signed as ${me.id}`);
  const sent = (await first.getByLabel("Sent").textContent()) ?? "";
  expect(sent).toContain("accept: application/activity+json");
  expect(sent).toMatch(/^date: \w{3}, \d{2} \w{3} \d{4}/m);
  expect(sent).toContain(`signature: keyId="${me.id}#main-key"`);
  expect(await first.textContent()).toMatch(
    /Answer: 302 Found, first byte after \d+ ms, \d+ ms in all/,
  );
  expect(await first.getByLabel("Answer headers").textContent()).toContain(`location: ${target}`);
  expect(await first.textContent()).toContain(`Redirected to ${target}`);
  expect(await second.getByRole("heading").textContent()).toBe(`2. GET ${target}`);
  expect(await second.textContent()).toMatch(
    /Answer: 200 OK, first byte after \d+ ms, \d+ ms in all/,
  );
  expect(await second.getByLabel("Answer headers").textContent()).toContain(
    "content-type: application/activity+json",
  );
  expect(
    await page.getByRole("button", { name: "Hide exchange" }).getAttribute("aria-expanded"),
  ).toBe("true");
});

test("Show exchange says it is not available where the server's lookup does not report it (as cattle_grid's)", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const target = await api.createActor("plain");
  // cattle_grid answers a lookup with {raw, parsed} only: the same answer without Corral's field.
  await page.route("**/fe/actor/lookup", async (route) => {
    const answer = await route.fetch();
    const { exchange: _exchange, ...plain } = (await answer.json()) as Record<string, unknown>;
    await route.fulfill({ response: answer, json: plain });
  });
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(target.id)}`);
  await page.getByText('"plain"').first().waitFor();
  await page.getByRole("button", { name: "Show exchange" }).click();
  await page
    .getByRole("region", { name: "Exchange" })
    .getByText(/the exchange is not available here/)
    .waitFor();
});

test("Show exchange on this server's own actor writes its URI as it is, not capitalised", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const own = await api.createActor("homebody");
  await signIn(page, account);
  await page.goto(`/lookup?uri=${encodeURIComponent(own.id)}`);
  await page.getByText('"homebody"').first().waitFor();
  await page.getByRole("button", { name: "Show exchange" }).click();
  const note = page
    .getByRole("region", { name: "Exchange" })
    .getByText(/is on this server: answered from its database, no request sent\.$/);
  await note.waitFor();
  // "Http://…" was seen: the sentence's first letter was raised even where it begins a URI.
  expect(await note.textContent()).toBe(
    `${own.id} is on this server: answered from its database, no request sent.`,
  );
});
