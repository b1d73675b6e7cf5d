import { expect, pageLog, test } from "./harness/fixtures.ts";
import {
  drawerEntry,
  eventually,
  openActorMenu,
  readUserStorage,
  recordFeRequests,
  signIn,
  signInControl,
  signInForm,
  visibleText,
  openFromDrawer,
} from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";

// docs/console-guide.md#sign-in: the page, the user state it keeps (#what-the-browser-keeps), its
// transitions and its errors.

test("the sign-in card is at most 400 px wide and holds Name, a masked Password and Sign In", async ({
  page,
}) => {
  await page.goto("/signin");
  const heading = page.getByRole("heading", { name: "Sign In" });
  const card = heading.locator(
    "xpath=ancestor::*[contains(concat(' ', @class, ' '), ' MuiCard-root ')][1]",
  );
  const box = await card.boundingBox();
  expect(box?.width).toBeGreaterThan(200);
  expect(box?.width).toBeLessThanOrEqual(400);
  await card.getByRole("textbox", { name: "Name" }).waitFor();
  expect(await card.getByLabel("Password").getAttribute("type")).toBe("password");
  await card.getByRole("button", { name: "Sign In" }).waitFor();
});

test("signing in goes to / and persists token, actors, methodInformations and currentActor", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor("persisted");
  await signIn(page, account);
  expect(new URL(page.url()).pathname).toBe("/");
  await eventually(async () => (await readUserStorage(page))?.actors.length).toBe(1);
  const stored = (await readUserStorage(page))!;
  expect(typeof stored.token).toBe("string");
  expect(stored.token!.length).toBeGreaterThan(10);
  expect(stored.actors[0]).toMatchObject({ id: actor.id });
  expect(stored.methodInformations.map((method) => method.routing_key)).toEqual(
    expect.arrayContaining([
      "send_message",
      "update_actor",
      "delete_actor",
      "publish_activity",
      "publish_object",
    ]),
  );
  expect(Object.keys(stored).sort()).toEqual([
    "actors",
    "currentActor",
    "methodInformations",
    "token",
  ]);
  expect(stored.currentActor === null || stored.currentActor === actor.id).toBe(true);
});

test("a wrong password logs 'token is undefined', shows only the server's reason and stays on /signin", async ({
  page,
  account,
}) => {
  await page.goto("/signin");
  await page.getByRole("textbox", { name: "Name" }).fill(account.name);
  await page.getByLabel("Password").fill("not-the-password");
  const before = await visibleText(page);
  const answered = page.waitForResponse((response) => response.url().endsWith("/fe/signin"));
  await signInForm(page).getByRole("button", { name: "Sign In" }).click();
  expect((await answered).status()).toBe(401);
  await eventually(() => pageLog(page).some((line) => line.includes("token is undefined"))).toBe(
    true,
  );
  // The card says why (docs/console-guide.md#sign-in); nothing else changes.
  const alert = signInForm(page).getByRole("alert");
  await alert.waitFor();
  expect(await alert.textContent()).toBe("Wrong name or password");
  expect(new URL(page.url()).pathname).toBe("/signin");
  expect((await visibleText(page)).replace("Wrong name or password\n", "")).toBe(before);
  expect((await readUserStorage(page))?.token ?? null).toBeNull();
});

test("empty fields are not checked in the browser: the request goes out and the page stays", async ({
  page,
}) => {
  const requests = recordFeRequests(page);
  await page.goto("/signin");
  await signInForm(page).getByRole("button", { name: "Sign In" }).click();
  await eventually(() => requests.filter((r) => r.url().endsWith("/fe/signin")).length).toBe(1);
  expect(requests[0]!.postDataJSON()).toEqual({ name: "", password: "" });
  await eventually(() => pageLog(page).some((line) => line.includes("token is undefined"))).toBe(
    true,
  );
  expect(new URL(page.url()).pathname).toBe("/signin");
});

test("sign-in sends no Authorization header and every later call carries the bearer token", async ({
  page,
  account,
}) => {
  const requests = recordFeRequests(page);
  await signIn(page, account);
  await drawerEntry(page, "Info").waitFor();
  await eventually(
    () => requests.filter((r) => r.url().endsWith("/fe/account/info")).length,
  ).toBeGreaterThan(0);
  const token = (await readUserStorage(page))!.token;
  const signInCall = requests.find((request) => request.url().endsWith("/fe/signin"))!;
  expect(await signInCall.headerValue("authorization")).toBeNull();
  expect(signInCall.postDataJSON()).toEqual({ name: account.name, password: account.password });
  const later = requests.filter((request) => !request.url().endsWith("/fe/signin"));
  for (const request of later) {
    expect(await request.headerValue("authorization"), request.url()).toBe(`Bearer ${token}`);
  }
});

test("Logout ends the token on the server, clears it and the current actor and returns to /", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("leaving");
  await signIn(page, account);
  await openFromDrawer(page, "Perform");
  const menu = await openActorMenu(page);
  await menu.getByRole("separator").waitFor();
  const token = (await readUserStorage(page))?.token;
  expect(token).toEqual(expect.any(String));
  await menu.getByRole("menuitem", { name: "Logout" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await eventually(async () => (await readUserStorage(page))?.token).toBeNull();
  expect((await readUserStorage(page))?.currentActor).toBeNull();
  await signInControl(page).waitFor();
  await page.getByText("Please login").waitFor();
  // POST /fe/signout ended it: a copy of the old token no longer works.
  const info = () =>
    fetch(`${corral.url}/fe/account/info`, { headers: { Authorization: `Bearer ${token}` } });
  await eventually(async () => (await info()).status).toBe(401);
});

test("a 401 on the info call clears the token (tokens revoked with the CLI)", async ({
  page,
  account,
  corral,
}) => {
  await signIn(page, account);
  await drawerEntry(page, "Info").waitFor();
  await corral.account("revoke-tokens", account.name);
  await page.reload();
  await eventually(async () => (await readUserStorage(page))?.token).toBeNull();
  await eventually(() => pageLog(page).some((line) => line.includes("unauthorized"))).toBe(true);
  await signInControl(page).waitFor();
});
