import { createServer } from "node:net";
import { DatabaseSync } from "node:sqlite";
import type { Locator, Page } from "playwright-core";
import { expect, test } from "./harness/fixtures.ts";
import {
  chooseOption,
  drawerEntry,
  eventually,
  openFromDrawer,
  signIn,
} from "./harness/console-ui.ts";
import { startCorral } from "./harness/corral-server.ts";
import { signInApi, type FeApi } from "./harness/fe-api.ts";
import { startRemoteInbox } from "./harness/remote-inbox.ts";
import { startRemotePeer, type RemotePeer } from "./harness/remote-peer.ts";

// issue 28 "Done when", against the real server and real peers on 127.0.0.1: "Check host" shows
// each step as it completes and on a healthy host every step passes; on a private address
// without --allow-private-addresses it stops at the first step and connects nowhere; a recipient
// on a closed port and one on a name that does not resolve appear on Deliveries as failing with
// the reason in words; a held host shows its next probe and, on the first success, what waited is
// delivered once each; a delivery retried three times shows three attempts in Perform's Result.

function noteFrom(peer: RemotePeer, to: string, n: number) {
  return {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${peer.origin}/activities/${n}`,
    type: "Create",
    actor: peer.actor,
    to: [to],
    object: {
      id: `${peer.origin}/notes/${n}`,
      type: "Note",
      attributedTo: peer.actor,
      content: "hi",
    },
  };
}

/** send_message through /fe, answering the trigger's id (Corral-Trigger-Id). */
async function send(corralUrl: string, api: FeApi, actor: string, to: string, content = "hello") {
  const response = await fetch(`${corralUrl}/fe/actor/trigger/send_message`, {
    method: "POST",
    headers: { Authorization: `Bearer ${api.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ actor, data: { type: "Note", content, to: [to] } }),
  });
  expect(response.status).toBe(202);
  return response.headers.get("Corral-Trigger-Id")!;
}

/** A port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const stepRows = (page: Page) => page.getByRole("table", { name: "Check steps" }).getByRole("row");

/** Each row of the check's table as [step, result] (the header row left out). */
const stepResults = (page: Page) =>
  stepRows(page).evaluateAll((rows) =>
    rows.slice(1).map((row) => {
      const cells = row.querySelectorAll("td");
      return [cells[0]?.textContent, cells[1]?.textContent];
    }),
  );

test("'Check host' shows each step as it completes, names the one running, and on a healthy host every step passes", async ({
  page,
  account,
  corral,
}) => {
  const peer = await startRemotePeer("hale");
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    const actor = await api.createActor(`healthy_${account.name}`);
    // Known both ways: it wrote to us (its actor is known), we delivered to it (its scheme).
    expect(await peer.post(actor.inbox as string, noteFrom(peer, actor.id, 1))).toBe(202);
    await send(corral.url, api, actor.id, peer.actor);
    const release = peer.holdInboxGets();

    await signIn(page, account, { awaitStreams: false });
    await page.goto(`/deliveries/${peer.host}`);
    await page.getByRole("heading", { name: peer.host, level: 1 }).waitFor();
    await page.getByRole("button", { name: "Check host" }).click();

    // The inbox step waits on the peer: the five before it are on the page already, it runs.
    await eventually(() => stepResults(page), 30_000).toEqual([
      ["resolve", "ok"],
      ["connect", "ok"],
      ["nodeinfo", "ok"],
      ["actor", "ok"],
      ["webfinger", "ok"],
      ["inbox", "running"],
    ]);
    const status = page.getByRole("region", { name: "Check host" }).getByRole("status");
    expect(await status.textContent()).toBe(`Checking ${peer.host}: the GET of its inbox…`);
    expect(await page.getByRole("button", { name: "Check host" }).isDisabled()).toBe(true);
    const verdict = page.getByRole("alert").filter({ hasText: "passed every step" });
    expect(await verdict.count()).toBe(0);

    release();
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.textContent()).toMatch(
      new RegExp(`^${peer.host.replace(/\./g, "\\.")} passed every step`),
    );
    expect(await stepResults(page)).toEqual(
      ["resolve", "connect", "nodeinfo", "actor", "webfinger", "inbox"].map((s) => [s, "ok"]),
    );
    expect(await status.textContent()).toBe("");
  } finally {
    await peer.close();
  }
});

test("'Check host' on a private address without --allow-private-addresses stops at the first step and connects nowhere", async ({
  browser,
}) => {
  const guarded = await startCorral({ allowPrivateAddresses: false });
  const peer = await startRemotePeer("priv");
  const context = await browser.newContext({ baseURL: guarded.url });
  context.setDefaultTimeout(10_000);
  try {
    const account = { name: "guarded_op", password: "pw-guarded-op-secret" };
    await guarded.account("new", account.name, account.password, "--admin");
    const page = await context.newPage();
    await signIn(page, account, { awaitStreams: false });
    await page.goto(`/deliveries/${peer.host}`);
    await page.getByRole("heading", { name: peer.host, level: 1 }).waitFor();
    await page.getByRole("button", { name: "Check host" }).click();

    const verdict = page.getByRole("alert").filter({ hasText: /failed/ });
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.textContent()).toMatch(
      /^Resolving its name failed: refused private address/,
    );
    expect(await stepResults(page)).toEqual([["resolve", "failed"]]);
    expect(peer.connections()).toBe(0);
  } finally {
    await context.close();
    await Promise.all([peer.close(), guarded.dispose()]);
  }
});

test("a recipient on a closed port and one on a name that does not resolve appear on Deliveries as failed, with the reason in words; one set of words for a fate on Perform and the host page, whose counts agree with its list", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  const actor = await api.createActor(`lost_${account.name}`);
  const closed = await closedPort();
  await send(corral.url, api, actor.id, `http://127.0.0.1:${closed}/actor`);
  const lost = await send(corral.url, api, actor.id, "http://nowhere.invalid/actor");

  await signIn(page, account, { awaitStreams: false });
  await drawerEntry(page, "Deliveries").click();
  const hosts = page.getByRole("table", { name: "Remote hosts" });
  const row = (host: string) =>
    hosts.getByRole("row").filter({ has: page.getByRole("link", { name: host, exact: true }) });
  const refused = row(`127.0.0.1:${closed}`);
  const unresolved = row("nowhere.invalid");
  await eventually(() => refused.count(), 20_000).toBe(1);
  await eventually(() => unresolved.count(), 20_000).toBe(1);
  // Neither was sent (the actor could not be read): failed, nothing waits.
  expect(await refused.getByRole("cell").nth(1).textContent()).toMatch(
    /^failed.*could not be reached: ECONNREFUSED \(the connection was refused: nothing listens on that port\)/,
  );
  const unresolvedWords =
    /could not be reached: (ENOTFOUND|EAI_AGAIN) \(the name (does not resolve|could not be resolved now)\)/;
  expect(await unresolved.getByRole("cell").nth(1).textContent()).toMatch(
    new RegExp(`^failed.*${unresolvedWords.source}`),
  );

  // The host page: the same word, and its counts agree with its list of attempts.
  await page.goto("/deliveries/nowhere.invalid");
  const outbound = page.getByRole("region", { name: "Outbound (to it)" });
  await eventually(() => outbound.textContent(), 20_000).toContain("Statefailed");
  expect(await outbound.textContent()).toContain("Failures (7 days)1");
  const attempts = page.getByRole("region", { name: "Delivery attempts" });
  expect(await attempts.textContent()).toMatch(
    /Nothing was sent to nowhere\.invalid: its 1 failure in 7 days was a delivery not sent: the name (does not resolve|could not be resolved now)\./,
  );
  expect(await attempts.textContent()).not.toContain("was attempted yet");

  // Perform's Result: no inbox was found (the actor URL is not one), and the fate in words.
  await page.goto(`/perform?call=${encodeURIComponent(lost)}`);
  const table = page.getByRole("region", { name: "Result" }).getByRole("table", {
    name: "Deliveries",
  });
  const only = table.getByRole("row").nth(1);
  await eventually(() => only.getByRole("cell").nth(1).textContent(), 20_000).toMatch(
    /^not sent: the name (does not resolve|could not be resolved now)$/,
  );
  expect(await only.getByRole("cell").nth(0).textContent()).toBe(
    "none found: http://nowhere.invalid/actor could not be read",
  );
  // The Result's State line counts it in the same words ("done: 1 refused" was seen).
  expect(await page.getByTestId("trigger-state").textContent()).toBe("State: done: 1 not sent");
});

test("a held host shows its next probe; the first success delivers what waited, each once", async ({
  page,
  account,
  corral,
}) => {
  const remote = await startRemoteInbox("held", 503);
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    const actor = await api.createActor(`holder_${account.name}`);
    for (let n = 1; n <= 5; n++) await send(corral.url, api, actor.id, remote.actor, `wait ${n}`);
    await eventually(() => remote.attempts(), 20_000).toBe(5);
    // …and their outcomes written (the host's failures counted), before the clock moves on.
    const failures = async () => {
      const response = await fetch(`${corral.url}/fe/account/hosts`, {
        headers: { Authorization: `Bearer ${api.token}` },
      });
      const hosts = (await response.json()) as Array<{ host: string; failures7d: number }>;
      return hosts.find((h) => h.host === remote.host)?.failures7d;
    };
    await eventually(failures, 20_000).toBe(5);
    // The five failures began 11 minutes ago, as if the clock had moved on (the server reads
    // the run's start from its database; a test cannot wait 10 minutes).
    const db = new DatabaseSync(corral.databaseUrl.replace(/^sqlite:/, ""));
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      db.prepare("UPDATE hosts SET failing_since = ? WHERE host = ?").run(
        Date.now() - 11 * 60_000,
        remote.host,
      );
    } finally {
      db.close();
    }
    const probe = await send(corral.url, api, actor.id, remote.actor, "wait 6");
    await eventually(() => remote.attempts(), 20_000).toBe(6);

    await signIn(page, account, { awaitStreams: false });
    await page.goto(`/deliveries/${remote.host}`);
    await page.getByRole("heading", { name: remote.host, level: 1 }).waitFor();
    const hold = page.getByRole("alert").filter({ hasText: /^Held since/ });
    await hold.waitFor();
    expect(await hold.textContent()).toMatch(
      /^Held since .*: all 6 attempts over 11 min failed.* Next probe .*\./,
    );
    const outbound = page.getByRole("region", { name: "Outbound (to it)" });
    expect(await outbound.textContent()).toContain("Waiting6");

    // The probe succeeds: what waited goes at once, each once.
    remote.answer(202);
    const redeliver = await fetch(`${corral.url}/fe/actor/triggers/${probe}/redeliver`, {
      method: "POST",
      headers: { Authorization: `Bearer ${api.token}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(redeliver.status).toBe(202);
    await eventually(() => remote.accepted.length, 20_000).toBe(6);
    const contents = remote.accepted.map((note) => (note as { content: string }).content);
    expect(contents.sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `wait ${n}`));

    await page.reload();
    await page.getByRole("heading", { name: remote.host, level: 1 }).waitFor();
    await eventually(() => outbound.textContent()).toContain("Waiting0");
    expect(await outbound.textContent()).toContain("Statedelivered");
    expect(await hold.count()).toBe(0);
    // Nothing more arrives later: each once.
    expect(remote.accepted).toHaveLength(6);
  } finally {
    await remote.close();
  }
});

/** The cells of the delivery row for an inbox in Perform's Result. */
function deliveryRow(page: Page, inbox: string): Locator {
  const table = page.getByRole("region", { name: "Result" }).getByRole("table", {
    name: "Deliveries",
  });
  return table.getByRole("row").filter({ hasText: inbox });
}

test("a delivery retried three times shows three attempts with their statuses and answer starts", async ({
  page,
  account,
  corral,
}) => {
  const busy = `<html><body>${"Busy. ".repeat(80)}</body></html>`;
  const remote = await startRemoteInbox("busy", 503);
  remote.answer(503, busy);
  try {
    const api = await signInApi(corral.url, account.name, account.password);
    await api.createActor(`retried_${account.name}`);
    await signIn(page, account, { awaitStreams: false });
    await openFromDrawer(page, "Perform");
    await chooseOption(page, "Method to perform", "send_message");
    const data = { type: "Note", content: "three times", to: [remote.actor] };
    await page.getByRole("textbox", { name: "data" }).fill(JSON.stringify({ data }));
    await page.getByRole("button", { name: "Perform" }).click();

    const row = deliveryRow(page, remote.inbox);
    const attempts = () => row.getByRole("cell").nth(3).textContent();
    await eventually(attempts, 20_000).toBe("1");
    await row.getByRole("button", { name: "Redeliver" }).click();
    await eventually(attempts, 20_000).toBe("2");
    remote.answer(202);
    await row.getByRole("button", { name: "Redeliver" }).click();
    await eventually(attempts, 20_000).toBe("3");
    await eventually(() => row.getByRole("cell").nth(1).textContent()).toBe("delivered");

    const show = row.getByRole("button", { name: "Show attempts" });
    expect(await show.getAttribute("aria-expanded")).toBe("false");
    await show.click();
    const timeline = page.getByRole("table", { name: `Attempts to ${remote.inbox}` });
    await timeline.waitFor();
    const entries = await timeline
      .getByRole("row")
      .evaluateAll((rows) =>
        rows.slice(1).map((r) => [...r.querySelectorAll("td")].map((cell) => cell.textContent)),
      );
    expect(entries.map((cells) => [cells[0], cells[2]])).toEqual([
      ["1", "503"],
      ["2", "503"],
      ["3", "202"],
    ]);
    for (const cells of entries.slice(0, 2)) {
      expect(cells[4]).toMatch(/answered 503/);
      expect(cells[5]).toMatch(/^<html><body>Busy\. Busy\. /);
    }
    expect(entries[2]![4]).toBe("");
    expect(
      await row.getByRole("button", { name: "Hide attempts" }).getAttribute("aria-expanded"),
    ).toBe("true");
  } finally {
    await remote.close();
  }
});
