import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { resetUserStore } from "../../lib/user-store.ts";
import type { RefusalEntry } from "../../lib/wire-types.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { signIn } from "../../test/signed-in.ts";
import { sampleInfo, specRoutes } from "../../test/spec-fe.ts";

function refusal(id: number, overrides: Partial<RefusalEntry> = {}): RefusalEntry {
  return {
    id,
    at: `2026-11-25T03:00:${String(id % 60).padStart(2, "0")}Z`,
    client: "203.0.113.7",
    inbox: "http://127.0.0.1/inbox",
    keyId: "https://mastodon.example/users/zoe#main-key",
    keyHost: "mastodon.example",
    actorHost: "mastodon.example",
    activityId: `https://mastodon.example/activities/${id}`,
    activityType: "Create",
    status: 401,
    reason: "bad_signature",
    detail: "The signature does not verify with the key of https://mastodon.example/users/zoe",
    body: '{"type":"Create"}',
    attributed: true,
    ...overrides,
  };
}

const state = { info: sampleInfo(), refusals: [] as RefusalEntry[], pageSize: 2 };
let fe: FeServer;

beforeAll(async () => {
  fe = await startFeServer({
    ...specRoutes(state),
    // As docs/api.md#what-the-inbox-refused says: newest first, filtered by host (key's or actor's)
    // and reason, paged by id.
    "GET /account/refusals": ({ query }) => {
      const host = query.get("host");
      const reason = query.get("reason");
      const before = query.get("before");
      const matching = state.refusals
        .filter((entry) => !host || entry.keyHost === host || entry.actorHost === host)
        .filter((entry) => !reason || entry.reason === reason)
        .filter((entry) => !before || entry.id < Number(before))
        .sort((a, b) => b.id - a.id);
      return {
        status: 200,
        body: {
          refusals: matching.slice(0, state.pageSize),
          more: matching.length > state.pageSize,
        },
      };
    },
  });
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  setFeBaseUrl(fe.url);
  fe.calls.length = 0;
  state.info = sampleInfo();
  state.pageSize = 2;
  state.refusals = [
    refusal(1),
    refusal(2, {
      keyHost: "pixelfed.example",
      actorHost: "pixelfed.example",
      keyId: "https://pixelfed.example/users/amy#main-key",
      reason: "digest_mismatch",
      status: 401,
      detail: "The Digest header does not match the body",
    }),
    refusal(3, { reason: "date_skew", detail: "The Date is 7200 s off (more than 300 s)" }),
  ];
});

async function openRefused() {
  signIn();
  const view = renderConsole("/refused");
  const table = await screen.findByRole("table", { name: "Refused requests" });
  return { view, table, user: userEvent.setup() };
}

function bodyRows(table: HTMLElement): HTMLElement[] {
  return within(table).getAllByRole("row").slice(1);
}

describe("refused page", () => {
  it("is the drawer's 'Refused' entry", async () => {
    signIn();
    const { currentPath } = renderConsole("/");

    await userEvent.setup().click(screen.getByRole("link", { name: "Refused" }));

    expect(currentPath()).toBe("/refused");
    expect(await screen.findByRole("heading", { name: "Refused" })).toBeInTheDocument();
  });

  it("says that an unsigned request's host is only what its body claims, and where it came from", async () => {
    state.refusals = [
      refusal(4, {
        keyId: null,
        keyHost: null,
        actorHost: "mastodon.example",
        reason: "unsigned",
        detail: "The request carries no signature",
      }),
    ];
    const { table } = await openRefused();

    const host = within(bodyRows(table)[0]!).getAllByRole("cell")[1]!;
    expect(within(host).getByRole("link", { name: "mastodon.example" })).toBeInTheDocument();
    expect(host).toHaveTextContent("as its unsigned body claims; sent from 203.0.113.7");
  });

  it("lists refusals newest first: time, host, reason in words, key id, status, activity", async () => {
    const { table } = await openRefused();

    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Time", "Host", "Reason", "Key id", "Status", "Activity", "Body"]);
    const rows = bodyRows(table);
    expect(rows).toHaveLength(2);
    const cells = within(rows[0]!).getAllByRole("cell");
    expect(cells[1]).toHaveTextContent(/^mastodon\.example$/);
    expect(cells[2]).toHaveTextContent("The Date is 7200 s off (more than 300 s)");
    expect(cells[2]).toHaveTextContent("Date too far off");
    expect(cells[3]).toHaveTextContent("https://mastodon.example/users/zoe#main-key");
    expect(cells[4]).toHaveTextContent(/^401$/);
    expect(cells[5]).toHaveTextContent("Create https://mastodon.example/activities/3");
    expect(within(rows[1]!).getAllByRole("cell")[2]).toHaveTextContent(
      "The Digest header does not match the body",
    );
  });

  it("links each host to its page", async () => {
    const { table } = await openRefused();

    expect(
      within(bodyRows(table)[1]!).getByRole("link", { name: "pixelfed.example" }),
    ).toHaveAttribute("href", "/deliveries/pixelfed.example");
  });

  it("counts the rows shown per reason", async () => {
    await openRefused();

    const counts = screen.getByRole("list", { name: "Refusals per reason" });
    expect(
      within(counts)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Date too far off: 1", "Digest does not match the body: 1"]);
  });

  it("loads older refusals with 'Load more', asking before the oldest shown", async () => {
    const { table, user } = await openRefused();

    await user.click(screen.getByRole("button", { name: "Load more" }));

    await waitFor(() => expect(bodyRows(table)).toHaveLength(3));
    const asked = fe.calls.filter((call) => call.path === "/account/refusals");
    expect(asked.at(-1)!.query.get("before")).toBe("2");
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("filters by host and by reason", async () => {
    const { user } = await openRefused();
    const table = () => screen.getByRole("table", { name: "Refused requests" });

    await user.click(screen.getByRole("combobox", { name: "Reason" }));
    await user.click(await screen.findByRole("option", { name: "Bad signature" }));

    await waitFor(() => expect(bodyRows(table())).toHaveLength(1));
    expect(within(bodyRows(table())[0]!).getAllByRole("cell")[2]).toHaveTextContent(
      "does not verify",
    );
    expect(fe.calls.at(-1)!.query.get("reason")).toBe("bad_signature");

    await user.click(screen.getByRole("combobox", { name: "Reason" }));
    await user.click(await screen.findByRole("option", { name: "Any reason" }));
    await user.type(screen.getByRole("textbox", { name: "Host" }), "pixelfed.example");

    await waitFor(() => expect(bodyRows(table())).toHaveLength(1));
    expect(screen.getByRole("link", { name: "pixelfed.example" })).toBeInTheDocument();
    expect(fe.calls.at(-1)!.query.get("host")).toBe("pixelfed.example");
  });

  it("opened with ?host= (from a host's page) shows that host's refusals", async () => {
    signIn();
    renderConsole("/refused?host=pixelfed.example");

    const table = await screen.findByRole("table", { name: "Refused requests" });
    expect(bodyRows(table)).toHaveLength(1);
    expect(screen.getByRole("textbox", { name: "Host" })).toHaveValue("pixelfed.example");
  });

  it("shows a body kept with the refusal on asking", async () => {
    const { table, user } = await openRefused();

    await user.click(within(bodyRows(table)[0]!).getByText("Show body"));

    expect(within(bodyRows(table)[0]!).getByText('{"type":"Create"}')).toBeVisible();
  });

  it("in proxy mode says the upstream does not report refusals, and does not ask", async () => {
    state.info = sampleInfo({ backend: { name: "cattle_grid", version: "0.5.22" } });
    signIn(state.info);
    renderConsole("/refused");

    expect(
      await screen.findByText(/The upstream server does not report refusals/),
    ).toBeInTheDocument();
    expect(fe.calls.some((call) => call.path === "/account/refusals")).toBe(false);
  });
});
