import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { resetUserStore } from "../../lib/user-store.ts";
import type { HostCheck, HostDetail } from "../../lib/wire-types.ts";
import { startFeServer, type FeCall, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { signIn } from "../../test/signed-in.ts";
import { account, sampleInfo, specRoutes } from "../../test/spec-fe.ts";
import { createHostBook, hostRoutes, sampleHost } from "../../test/spec-hosts.ts";
import { formatWhen } from "./format-when.ts";

const outbound = {
  ...sampleHost("mastodon.example", {
    state: "failing",
    lastFailureAt: "2026-11-25T02:59:00Z",
    failures7d: 6,
    queued: 4,
  }),
  failuresByDay: [0, 0, 3, 1, 0, 0, 2],
  failingSince: "2026-11-24T02:00:00Z",
  lastError: "HTTP 403 Forbidden",
};

function sampleDetail(): HostDetail {
  return {
    ...outbound,
    software: { name: "mastodon", version: "4.3.2" },
    inbound: {
      lastAcceptedAt: "2026-11-25T01:00:00Z",
      lastRefusedAt: "2026-11-25T02:00:00Z",
      accepted7d: 12,
      refused7d: 3,
      refusedByReason: { digest_mismatch: 3 },
    },
    outbound,
    hold: {
      since: "2026-11-25T02:50:00Z",
      nextProbeAt: "2026-11-25T03:10:00Z",
      reason: "5 attempts over 10 minutes failed",
    },
    attempts: [
      {
        at: "2026-11-25T02:59:00Z",
        inbox: "https://mastodon.example/users/zoe/inbox",
        status: 403,
        durationMs: 42,
        error: "HTTP 403 Forbidden",
        response: "<html><body>Forbidden</body></html>",
      },
    ],
  };
}

const failingCheck: HostCheck = {
  steps: [
    { step: "resolve", ok: true, ms: 3, detail: "203.0.113.9" },
    { step: "connect", ok: true, ms: 5, detail: "TLS 1.3" },
    { step: "inbox", ok: false, ms: 40, detail: "HTTP 403 Forbidden: <html>…" },
  ],
  verdict: "The inbox step failed: the inbox answered 403 Forbidden.",
};

const state = {
  info: sampleInfo(),
  hosts: createHostBook([outbound]),
  detail: sampleDetail(),
  checkGate: null as Promise<void> | null,
};
let fe: FeServer;

beforeAll(async () => {
  const signedIn = (call: FeCall) => call.authorization === `Bearer ${account.token}`;
  const unauthorized = { status: 401, body: { detail: "Not authenticated" } };
  fe = await startFeServer({
    ...specRoutes(state),
    ...hostRoutes(() => state.hosts, signedIn, unauthorized),
    "GET /account/hosts/:host": ({ params }) =>
      params.host === state.detail.host
        ? {
            status: 200,
            body: { ...state.detail, outbound: state.hosts.hosts[0], ...state.hosts.hosts[0] },
          }
        : { status: 404, body: { detail: `Nothing was sent to or heard from ${params.host}` } },
    "GET /account/refusals": ({ query }) => ({
      status: 200,
      body: {
        refusals:
          query.get("host") === "mastodon.example" && query.get("limit") === "10"
            ? [
                {
                  id: 9,
                  at: "2026-11-25T02:00:00Z",
                  client: "203.0.113.7",
                  inbox: "http://127.0.0.1/inbox",
                  keyId: "https://mastodon.example/users/zoe#main-key",
                  keyHost: "mastodon.example",
                  actorHost: "mastodon.example",
                  activityId: "https://mastodon.example/activities/9",
                  activityType: "Create",
                  status: 401,
                  reason: "digest_mismatch",
                  detail: "the Digest header does not match the body",
                  body: null,
                  attributed: true,
                },
              ]
            : [],
        more: true,
      },
    }),
    "POST /account/hosts/:host/check": async () => {
      await state.checkGate;
      return { status: 200, body: failingCheck };
    },
  });
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  setFeBaseUrl(fe.url);
  fe.calls.length = 0;
  state.hosts = createHostBook([outbound]);
  state.detail = sampleDetail();
  state.checkGate = null;
});

async function openHost(host = "mastodon.example") {
  signIn();
  const view = renderConsole(`/deliveries/${host}`);
  await screen.findByRole("heading", { name: host, level: 1 });
  return { view, user: userEvent.setup() };
}

/** The value beside a term in a definition list within `section`. */
function valueOf(section: HTMLElement, term: string): string | null {
  const dt = within(section).getByText(term, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? null;
}

describe("host page", () => {
  it("is opened from the host's name on Deliveries", async () => {
    signIn();
    const { currentPath } = renderConsole("/deliveries");
    const table = await screen.findByRole("table", { name: "Remote hosts" });

    await userEvent.setup().click(within(table).getByRole("link", { name: "mastodon.example" }));

    expect(currentPath()).toBe("/deliveries/mastodon.example");
    expect(
      await screen.findByRole("heading", { name: "mastodon.example", level: 1 }),
    ).toBeInTheDocument();
  });

  it("shows its software, both directions and its hold", async () => {
    await openHost();

    expect(await screen.findByText("Software: mastodon 4.3.2")).toBeInTheDocument();
    const inbound = screen.getByRole("region", { name: "Inbound (from it)" });
    expect(valueOf(inbound, "Accepted (7 days)")).toBe("12");
    expect(valueOf(inbound, "Refused (7 days)")).toBe("3");
    expect(valueOf(inbound, "Refused: Digest does not match the body")).toBe("3");
    expect(within(inbound).getByRole("link", { name: "3" })).toHaveAttribute(
      "href",
      "/refused?host=mastodon.example",
    );
    expect(valueOf(inbound, "Last refused")).toBe(formatWhen("2026-11-25T02:00:00Z"));
    const out = screen.getByRole("region", { name: "Outbound (to it)" });
    expect(valueOf(out, "State")).toBe("held");
    expect(valueOf(out, "Last error")).toBe("HTTP 403 Forbidden");
    expect(valueOf(out, "Waiting")).toBe("4");
    // The next probe's moment is written as a moment, not as the source text of one.
    expect(
      screen.getByText(/Held since .*: 5 attempts over 10 minutes failed\. Next probe/).textContent,
    ).toContain(`Next probe ${formatWhen("2026-11-25T03:10:00Z")}.`);
  });

  it("lists the newest attempts with their status, duration, error and the start of the answer", async () => {
    await openHost();

    const table = await screen.findByRole("table", { name: "Newest attempts" });
    const cells = within(within(table).getAllByRole("row")[1]!).getAllByRole("cell");
    expect(cells.map((cell) => cell.textContent)).toEqual([
      formatWhen("2026-11-25T02:59:00Z"),
      "https://mastodon.example/users/zoe/inbox",
      "403",
      "42",
      "HTTP 403 Forbidden",
      "<html><body>Forbidden</body></html>",
    ]);
  });

  it("lists its newest refusals, with the way to all of them on Refused", async () => {
    await openHost();

    const table = await screen.findByRole("table", { name: "Newest refusals" });
    const cells = within(within(table).getAllByRole("row")[1]!).getAllByRole("cell");
    expect(cells.map((cell) => cell.textContent)).toEqual([
      formatWhen("2026-11-25T02:00:00Z"),
      "Digest does not match the body: the Digest header does not match the body",
      "401",
      "Create https://mastodon.example/activities/9",
    ]);
    expect(
      screen.getByRole("link", { name: "All refusals from mastodon.example" }),
    ).toHaveAttribute("href", "/refused?host=mastodon.example");
  });

  it("stops delivery after confirming, and offers to resume it", async () => {
    const { user } = await openHost();

    await user.click(await screen.findByRole("button", { name: "Stop delivery" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Stop delivery" }));

    expect(await screen.findByRole("button", { name: "Resume delivery" })).toBeInTheDocument();
    expect(state.hosts.actions).toEqual([{ host: "mastodon.example", action: "stop" }]);
  });

  it("'Check host' waits for the check, then shows each step and the verdict", async () => {
    let release = () => {};
    state.checkGate = new Promise<void>((done) => (release = done));
    const { user } = await openHost();

    await user.click(await screen.findByRole("button", { name: "Check host" }));

    expect(await screen.findByText(/Checking mastodon\.example/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Check host" })).toBeDisabled();
    release();
    const steps = await screen.findByRole("table", { name: "Check steps" });
    const rows = within(steps).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getAllByRole("cell")[0]!.textContent)).toEqual([
      "resolve",
      "connect",
      "inbox",
    ]);
    expect(
      within(rows[2]!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["inbox", "failed", "40", "HTTP 403 Forbidden: <html>…"]);
    expect(screen.getByText(failingCheck.verdict)).toBeInTheDocument();
    expect(screen.queryByText(/Checking mastodon\.example/)).toBeNull();
  });

  it("says so when nothing is known of the host, and still offers the check", async () => {
    signIn();
    renderConsole("/deliveries/never.example");

    expect(
      await screen.findByText(/Nothing was sent to or heard from never\.example/),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Check host" })).toBeInTheDocument();
    await waitFor(() =>
      expect(fe.calls.some((call) => call.path === "/account/hosts/never.example")).toBe(true),
    );
  });
});
