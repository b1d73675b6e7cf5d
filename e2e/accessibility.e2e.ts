import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { onTestFinished } from "vitest";
import { expect, test } from "./harness/fixtures.ts";
import { chooseOption, eventually, openFromDrawer } from "./harness/console-ui.ts";
import { buildCreateNote } from "./harness/fe-api.ts";
import { startRemotePeer } from "./harness/remote-peer.ts";
import { causeErrors, messageTrees, signInWithTwoActors } from "./harness/stream-events.ts";

// Issue 25 item 15b: axe-core's WCAG 2.1 A and AA rules over every page, in light and in dark
// mode, find nothing. axe-core runs inside the page (its own axe.min.js, pinned in package.json).

// Evaluated through the DevTools protocol: the console's CSP (script-src 'self') refuses a
// script tag, as it should.
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const SCHEMES = ["light", "dark"] as const;

type Finding = { page: string; scheme: string; rule: string; impact: string; nodes: string[] };

/** axe-core's violations of the page as it is now, one finding per rule. */
async function audit(page: Page, name: string, scheme: string): Promise<Finding[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
    return result.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? "",
      nodes: violation.nodes.map(
        (node) => `${node.target.join(" ")}: ${node.failureSummary?.split("\n")[1]?.trim() ?? ""}`,
      ),
    }));
  }, WCAG_21_AA);
  return violations.map((violation) => ({ page: name, scheme, ...violation }));
}

/** Opens each page by its address and audits it in both colour schemes. */
async function auditPages(
  page: Page,
  pages: Record<string, string>,
  ready: (name: string) => Promise<unknown>,
) {
  const findings: Finding[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(path);
      await ready(name);
      // MUI's transitions (a ripple, a fading menu) settle before colours are read.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 400)));
      findings.push(...(await audit(page, name, scheme)));
    }
  }
  return findings;
}

test("signed out, every page passes axe-core's WCAG 2.1 A/AA rules in light and dark", async ({
  page,
}) => {
  const findings = await auditPages(
    page,
    { info: "/", signin: "/signin", lookup: "/lookup", perform: "/perform", unknown: "/nowhere" },
    () => page.getByRole("banner").waitFor(),
  );
  expect(findings).toEqual([]);
});

test("signed in with messages, every page passes axe-core's WCAG 2.1 A/AA rules in light and dark", async ({
  page,
  account,
  corral,
}) => {
  const setup = await signInWithTwoActors(page, corral, account);
  await openFromDrawer(page, "Incoming");
  await setup.api.trigger("send_message", {
    actor: setup.sender,
    data: buildCreateNote(setup.sender, setup.receiver, "a note for the audit"),
  });
  await causeErrors(setup, 1);
  await eventually(() => messageTrees(page).count()).toBe(1);
  // A remote whose Digest lies: a row on "Refused" and a host page with something on it.
  const peer = await startRemotePeer("mallory");
  onTestFinished(() => peer.close());
  const receiver = (await (
    await fetch(setup.receiver, { headers: { Accept: "application/activity+json" } })
  ).json()) as { inbox: string };
  const refused = buildCreateNote(peer.actor, setup.receiver, "refused");
  expect(await peer.post(receiver.inbox, refused, { wrongDigest: true })).toBe(401);
  const pages = {
    info: "/",
    // A remote actor: "Show exchange" lists real requests and answers.
    lookup: `/lookup?uri=${encodeURIComponent(peer.actor)}`,
    perform: "/perform",
    "perform, data.actor": "/perform",
    incoming: "/stream/incoming",
    outgoing: "/stream/outgoing",
    error: "/stream/error",
    all: "/stream/all",
    "no stream": "/stream",
    deliveries: "/deliveries",
    refused: "/refused",
    host: `/deliveries/${encodeURIComponent(peer.host)}`,
    unknown: "/nowhere",
  };
  const findings = await auditPages(page, pages, async (name) => {
    await page.getByRole("banner").waitFor();
    if (name === "info") await page.getByRole("button", { name: "Create Actor" }).waitFor();
    if (name === "lookup") {
      await page.locator("main .json-tree").first().waitFor();
      await page.getByRole("button", { name: "Show exchange" }).click();
      await page.getByRole("article", { name: "Request 1" }).waitFor();
    }
    if (name.startsWith("perform")) {
      // The data box's check (issue 33, items 4 and 5): a bare activity's problem by path with
      // "Put it under data"; then, under data, the warning about an actor not the one acting.
      await chooseOption(page, "Method to perform", "send_message");
      const elsewhere = { type: "Create", actor: "https://elsewhere.example/users/x" };
      const box = page.getByRole("textbox", { name: "data" });
      if (name === "perform") {
        await box.fill(JSON.stringify(elsewhere));
        await page.getByRole("button", { name: "Put it under data" }).waitFor();
      } else {
        await box.fill(JSON.stringify({ data: elsewhere }));
        await page.getByText(/the actor you act as/).waitFor();
      }
    }
    if (["incoming", "outgoing", "error", "all"].includes(name))
      await messageTrees(page).first().waitFor();
    if (name === "deliveries") await page.getByRole("heading", { name: "Deliveries" }).waitFor();
    if (name === "refused") await page.getByRole("table", { name: "Refused requests" }).waitFor();
    if (name === "host") {
      await page.getByRole("region", { name: "Inbound (from it)" }).waitFor();
      await page.getByRole("button", { name: "Check host" }).click();
      await page.getByRole("table", { name: "Check steps" }).waitFor({ timeout: 30_000 });
    }
  });
  expect(findings).toEqual([]);
  // Thirteen pages in two schemes: about a minute on an idle machine.
}, 150_000);
