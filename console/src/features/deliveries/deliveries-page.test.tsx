import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  cells,
  deliveriesState as state,
  failingHost,
  openDeliveries,
  row,
  serveDeliveriesFe,
} from "../../test/deliveries-ui.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { signIn } from "../../test/signed-in.ts";
import { formatWhen } from "./format-when.ts";

const { fe } = serveDeliveriesFe();

function hostListCalls(): number {
  return fe().calls.filter((call) => call.path === "/account/hosts").length;
}

describe("deliveries page", () => {
  it("is the drawer's 'Deliveries' entry", async () => {
    signIn();
    const { currentPath } = renderConsole("/");

    await userEvent.setup().click(screen.getByRole("link", { name: "Deliveries" }));

    expect(currentPath()).toBe("/deliveries");
    expect(await screen.findByRole("heading", { name: "Deliveries" })).toBeInTheDocument();
  });

  it("signed out, says 'Please login' with the way to Sign In", () => {
    renderConsole("/deliveries");

    expect(screen.getByText("Please login")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/signin");
  });

  it("lists each host with its state, last success and failure, failures in 7 days and queue", async () => {
    const { table } = await openDeliveries();

    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual([
      "Host",
      "State",
      "Last success",
      "Last failure",
      "Failures (7 days)",
      "Queued",
      "Actions",
    ]);
    const failing = cells(table, "mastodon.example");
    expect(failing[1]).toHaveTextContent(/^retrying$/);
    expect(failing[2]).toHaveTextContent(formatWhen("2026-11-25T03:00:00Z"));
    expect(failing[3]).toHaveTextContent(formatWhen("2026-11-25T02:59:00Z"));
    expect(formatWhen("2026-11-25T02:59:00Z")).toMatch(/25/);
    expect(failing[4]).toHaveTextContent(/^6Failures per day/); // the count, then the chart's title
    expect(failing[5]).toHaveTextContent(/^4$/);
    const ok = cells(table, "pixelfed.example");
    expect(ok[1]).toHaveTextContent(/^delivered$/);
    expect(ok[3]).toHaveTextContent(/^never$/);
  });

  it("draws failures per day as a chart named by its numbers, and none when the server sends none", async () => {
    const { table } = await openDeliveries();

    const chart = within(row(table, "mastodon.example")).getByRole("img");
    expect(chart).toHaveAccessibleName("Failures per day, last 7 days: 0, 0, 3, 1, 0, 0, 2");
    expect(chart.querySelectorAll("rect")).toHaveLength(7);
    expect(within(row(table, "pixelfed.example")).queryByRole("img")).toBeNull();
  });

  it("shows that it loads, then when it was updated, and keeps asking while open", async () => {
    let release = () => {};
    state.hosts.gate = new Promise<void>((done) => (release = done));
    signIn();
    renderConsole("/deliveries");

    await screen.findByRole("progressbar", { name: "Loading deliveries" });
    expect(screen.getByTestId("refresh-status")).toHaveTextContent("Loading deliveries…");
    state.hosts.gate = null;
    release();
    const table = await screen.findByRole("table", { name: "Remote hosts" });
    expect(screen.getByTestId("refresh-status")).toHaveTextContent(
      /^Updated .+; refreshed every 0\.05 s while open/,
    );

    // A change on the server shows without a click, and a slow answer shows it is awaited.
    state.hosts.hosts = [failingHost({ queued: 9 })];
    await waitFor(() => expect(cells(table, "mastodon.example")[5]).toHaveTextContent(/^9$/));
    state.hosts.gate = new Promise<void>((done) => (release = done));
    await screen.findByRole("progressbar", { name: "Refreshing deliveries" });
    expect(screen.getByTestId("refresh-status")).toHaveTextContent("(refreshing…)");
    state.hosts.gate = null;
    release();
  });

  it("says 'No deliveries yet' and what will appear when the account sent nothing", async () => {
    state.hosts.hosts = [];
    signIn();
    renderConsole("/deliveries");

    expect(await screen.findByText("No deliveries yet")).toBeInTheDocument();
    expect(screen.getByText(/When one of your actors sends an activity/)).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("in front of a cattle_grid (404) says the upstream does not report deliveries and stops asking", async () => {
    state.hosts.answer = { status: 404, body: { detail: "Not Found" } };
    signIn();
    renderConsole("/deliveries");

    expect(
      await screen.findByText(/The upstream server does not report deliveries/),
    ).toBeInTheDocument();
    const main = screen.getByRole("main");
    expect(within(main).getByRole("link", { name: "Outgoing" })).toHaveAttribute(
      "href",
      "/stream/outgoing",
    );
    expect(screen.queryByRole("alert")).toBeNull();
    const asked = hostListCalls();
    await new Promise((done) => setTimeout(done, 200)); // four poll periods
    expect(hostListCalls()).toBe(asked);
  });

  it("says in words why the hosts could not be read, and keeps the last table on a later failure", async () => {
    state.hosts.answer = { status: 500, body: { detail: "database is locked" } };
    signIn();
    renderConsole("/deliveries");

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Could not read deliveries: HTTP 500: database is locked.",
    );
    state.hosts.answer = null;
    const table = await screen.findByRole("table", { name: "Remote hosts" });
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());

    state.hosts.answer = { status: 502, body: { detail: "Upstream is unreachable" } };

    expect(await screen.findByRole("alert")).toHaveTextContent(
      /Could not refresh deliveries: The server is not answering \(HTTP 502: Upstream is unreachable\)\. Showing what was read at/,
    );
    expect(row(table, "mastodon.example")).toBeInTheDocument();
  });

  it("when the token is refused (401), says the session ended, offers Sign In and stops asking", async () => {
    state.hosts.answer = { status: 401, body: { detail: "Not authenticated" } };
    signIn();
    renderConsole("/deliveries");

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(
      "Could not read deliveries: HTTP 401: Not authenticated. The session has ended: Sign In again.",
    );
    expect(within(alert).getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/signin");
    const asked = hostListCalls();
    await new Promise((done) => setTimeout(done, 200)); // four poll periods
    expect(hostListCalls()).toBe(asked);
  });

  it("says since when a failing host fails, when the server tells", async () => {
    state.hosts.hosts = [failingHost({ failingSince: "2026-11-20T10:00:00Z" })];
    const { table } = await openDeliveries();

    expect(cells(table, "mastodon.example")[1]).toHaveTextContent(
      `retryingsince ${formatWhen("2026-11-20T10:00:00Z")}`,
    );
  });
});
