import { expect, test } from "./harness/fixtures.ts";
import {
  chooseOption,
  eventually,
  listOptions,
  openActorMenu,
  readUserStorage,
  recordFeRequests,
  signIn,
} from "./harness/console-ui.ts";
import { startCorral, type Corral } from "./harness/corral-server.ts";
import { signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#info: the page, the actor creation request, handle trimming, the modal's width.

test("without a token the Info page says Please login", async ({ page }) => {
  await page.goto("/");
  await page.getByText("Please login").waitFor();
});

test("the Info page shows Loading... while the info call is under way", async ({
  page,
  account,
}) => {
  await signIn(page, account);
  // Hold the info answer back (it still comes from the real server) so the state stays visible.
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route("**/fe/account/info", async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  await page.getByText("Loading...").waitFor();
  release();
  await page.getByText("Loading...").waitFor({ state: "hidden" });
  await page.getByText(account.name).first().waitFor();
});

test("the Info page shows the account info as a JSON tree", async ({ page, account, corral }) => {
  await signIn(page, account);
  await page.getByText(`"${account.name}"`).first().waitFor();
  await page.getByText(`"${corral.url}"`).first().waitFor();
});

test("creates an actor from Base Url and a trimmed handle, shows it in an 800 px modal, refreshes the info", async ({
  page,
  account,
  corral,
}) => {
  const requests = recordFeRequests(page);
  await signIn(page, account);
  expect(await listOptions(page, "Base Url")).toEqual([corral.url]);
  await chooseOption(page, "Base Url", corral.url);
  await page.getByRole("textbox", { name: "handle" }).fill("  ada  ");
  await page.getByRole("button", { name: "Create Actor" }).click();

  const modal = page.getByRole("dialog");
  await modal.getByText('"ada"').waitFor();
  expect((await modal.boundingBox())?.width).toBe(800);
  const create = requests.find((request) => request.url().endsWith("/fe/account/create"))!;
  expect(create.postDataJSON()).toEqual({ baseUrl: corral.url, handle: "ada" });

  // The info is fetched again after creation and now names the new actor.
  await eventually(
    () => requests.filter((r) => r.url().endsWith("/fe/account/info")).length,
  ).toBeGreaterThan(1);
  await page.keyboard.press("Escape");
  await modal.waitFor({ state: "hidden" });
  const api = await signInApi(corral.url, account.name, account.password);
  const [actor] = (await api.info()).actors;
  await page.getByText(`"${actor!.id}"`).first().waitFor();
  // The refreshed info replaced the actors held (persisted and in the Open menu).
  await eventually(async () => (await readUserStorage(page))?.actors.map((a) => a.id)).toEqual([
    actor!.id,
  ]);
  const menu = await openActorMenu(page);
  await menu.getByText(actor!.name, { exact: true }).waitFor();
});

test("sends an empty handle as null", async ({ page, account, corral }) => {
  const requests = recordFeRequests(page);
  await signIn(page, account);
  await chooseOption(page, "Base Url", corral.url);
  await page.getByRole("textbox", { name: "handle" }).fill("   ");
  await page.getByRole("button", { name: "Create Actor" }).click();
  await page.getByRole("dialog").waitFor();
  const create = requests.find((request) => request.url().endsWith("/fe/account/create"))!;
  expect(create.postDataJSON()).toEqual({ baseUrl: corral.url, handle: null });
});

test("hides the create-actor panel when the info lists no base URL", async ({ page, corral }) => {
  // An account without --admin and without permissions is granted no base URL.
  const account = { name: `plain${process.pid % 10_000}`, password: "plain-password" };
  await corral.account("new", account.name, account.password);
  await signIn(page, account);
  await page.getByText(`"${account.name}"`).first().waitFor();
  expect(await page.getByRole("button", { name: "Create Actor" }).count()).toBe(0);
  expect(await page.getByRole("combobox", { name: "Base Url" }).count()).toBe(0);
  // And it says why (docs/console-guide.md#info).
  await page.getByText(/This account cannot create actors/).waitFor();
});

test("Info names the actors on a base URL the server does not serve, beside them, with the flag that serves them", async ({
  browser,
}) => {
  // A database made on one port, served on another (npm start -- --port 4300 on one made at 3000).
  const made = await startCorral();
  let moved: Corral | undefined;
  try {
    await made.account("new", "mover", "mover-password", "--admin");
    const api = await signInApi(made.url, "mover", "mover-password");
    const actor = await api.createActor("wanderer");
    await made.stop();
    moved = await startCorral({ databaseUrl: made.databaseUrl });
    await expect
      .poll(() => moved!.output(), { timeout: 10_000 })
      .toContain(`Warning: 1 actor lives on ${made.url}`);
    const context = await browser.newContext({ baseURL: moved.url });
    try {
      const page = await context.newPage();
      await signIn(page, { name: "mover", password: "mover-password" });
      const notice = page.getByRole("region", { name: "Actors not served" });
      await notice.waitFor();
      const text = await notice.textContent();
      expect(text).toContain("1 actor lives on a base URL this server does not serve");
      expect(text).toContain(
        `wanderer: ${actor.id} lives on ${made.url}, which this server does not serve (it serves ${moved.url}): its id and WebFinger answer 404 here.`,
      );
      expect(text).toContain(`--base-url ${made.url} --base-url ${moved.url}`);
    } finally {
      await context.close();
    }
  } finally {
    await moved?.dispose();
    await made.dispose();
  }
});
