import mqtt from "mqtt";
import { expect, test } from "./harness/fixtures.ts";
import { drawerEntry, eventually, openFromDrawer, signIn } from "./harness/console-ui.ts";
import { causeErrors, signInWithTwoActors } from "./harness/stream-events.ts";

// One way to write a moment across the console: local time, the date in front when it is not
// today, the full ISO time on hover (docs: e2e/README.md maps this file).

const pad = (n: number) => String(n).padStart(2, "0");
/** The local date and time as the console writes a moment of another day. */
function localDateTime(iso: string): string {
  const d = new Date(iso);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

test("a stream's summary line writes today's moments as local time, the ISO time on hover", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await causeErrors(setup, 1);
  await openFromDrawer(page, "Error");
  const time = page.getByTestId("message-summary").first().locator("time");
  await eventually(() => time.textContent()).toMatch(/^\d\d:\d\d:\d\d$/);
  const iso = (await time.getAttribute("title"))!;
  expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(await time.textContent()).toBe(localDateTime(iso).slice(11));
  // The history heading ("Since …") is asserted in stream-history.e2e.ts.
});

test("Deliveries' table writes a moment of another day with its date and today's without, the ISO time on hover", async ({
  page,
  account,
}) => {
  const today = new Date().toISOString();
  const earlier = "2026-11-20T10:00:00.000Z";
  await page.route("**/fe/account/hosts", (route) =>
    route.fulfill({
      status: 200,
      json: [
        {
          host: "peer.example",
          state: "failing",
          lastSuccessAt: earlier,
          lastFailureAt: today,
          failures7d: 1,
          failuresByDay: [0, 0, 0, 0, 0, 0, 1],
          queued: 0,
          failed: [],
        },
      ],
    }),
  );
  await signIn(page, account);
  await drawerEntry(page, "Deliveries").click();
  const past = page.locator(`time[title="${earlier}"]`).first();
  await eventually(() => past.textContent()).toBe(localDateTime(earlier));
  const now = page.locator(`time[title="${today}"]`).first();
  expect(await now.textContent()).toBe(localDateTime(today).slice(11));
});

test("Info's Cattle Drive table writes a client's 'Connected since' as local time, the ISO time on hover", async ({
  page,
  account,
  corral,
}) => {
  // A real MQTT 5 client over the server's WebSocket, as almabtrieb connects.
  const client = await mqtt.connectAsync(`${corral.url.replace(/^http/, "ws")}/ws`, {
    protocolVersion: 5,
    username: account.name,
    password: account.password,
    reconnectPeriod: 0,
  });
  try {
    await signIn(page, account);
    const table = page.getByRole("table", { name: "Connected Cattle Drive clients" });
    const time = table.locator("time");
    // "11/28/2026, 5:07:00 AM" was seen here, beside the console's one format everywhere else.
    await eventually(() => time.first().textContent()).toMatch(/^\d\d:\d\d:\d\d$/);
    const iso = (await time.first().getAttribute("title"))!;
    expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await time.first().textContent()).toBe(localDateTime(iso).slice(11));
  } finally {
    await client.endAsync();
  }
});
