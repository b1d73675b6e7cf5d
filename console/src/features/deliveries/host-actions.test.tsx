import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { alice } from "../../test/spec-fe.ts";
import {
  cells,
  deadInbox,
  deliveriesState as state,
  failingHost,
  openDeliveries,
  row,
  serveDeliveriesFe,
} from "../../test/deliveries-ui.ts";

const { fe } = serveDeliveriesFe();

function posts(suffix: string): string[] {
  return fe()
    .calls.filter((call) => call.method === "POST" && call.path.endsWith(suffix))
    .map((call) => call.path);
}

function failedTable(): HTMLElement {
  return screen.getByRole("table", { name: "Failed deliveries to mastodon.example" });
}

/** Puts trigger t-1 with its failed delivery to the dead inbox in the server's book. */
function recordTrigger(): void {
  state.triggers.records.set("t-1", {
    id: "t-1",
    method: "send_message",
    actor: alice.id,
    receivedAt: "2026-11-25T02:00:00Z",
    state: "done",
    error: null,
    deliveries: [
      {
        inbox: deadInbox,
        state: "failed",
        status: 503,
        attempts: 5,
        lastError: "HTTP 503 Service Unavailable",
        nextAttemptAt: null,
        deliveredAt: null,
      },
    ],
    events: [],
  });
}

describe("deliveries page: per-host actions", () => {
  it("'Stop delivery' asks first, and 'Cancel' sends nothing", async () => {
    const { table, user } = await openDeliveries();

    await user.click(
      within(row(table, "mastodon.example")).getByRole("button", { name: "Stop delivery" }),
    );
    const dialog = screen.getByRole("dialog", { name: "Stop delivery to mastodon.example?" });
    expect(dialog).toHaveTextContent(/wait in the queue .*none is dropped/);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posts("/stop")).toEqual([]);
  });

  it("'Stop delivery' confirmed holds the host: it shows stopped, with 'Resume delivery'", async () => {
    const { table, user } = await openDeliveries();

    await user.click(
      within(row(table, "mastodon.example")).getByRole("button", { name: "Stop delivery" }),
    );
    const dialog = screen.getByRole("dialog", { name: "Stop delivery to mastodon.example?" });
    await user.click(within(dialog).getByRole("button", { name: "Stop delivery" }));

    await screen.findByText(
      "Delivery to mastodon.example stopped: its deliveries wait in the queue.",
    );
    expect(posts("/stop")).toEqual(["/account/hosts/mastodon.example/stop"]);
    await waitFor(() => expect(cells(table, "mastodon.example")[1]).toHaveTextContent("stopped"));
    expect(
      within(row(table, "mastodon.example")).getByRole("button", { name: "Resume delivery" }),
    ).toBeEnabled();
  });

  it("'Resume delivery' sends a stopped host's deliveries again", async () => {
    state.hosts.hosts[0] = failingHost({ state: "stopped" });
    const { table, user } = await openDeliveries();

    await user.click(
      within(row(table, "mastodon.example")).getByRole("button", { name: "Resume delivery" }),
    );

    await screen.findByText(/Delivery to mastodon\.example resumed/);
    expect(state.hosts.actions).toEqual([{ host: "mastodon.example", action: "resume" }]);
    await waitFor(() => expect(cells(table, "mastodon.example")[1]).toHaveTextContent("retrying"));
    expect(
      within(row(table, "mastodon.example")).getByRole("button", { name: "Stop delivery" }),
    ).toBeEnabled();
  });

  it("'Retry now' sends the host's failed deliveries again", async () => {
    const { table, user } = await openDeliveries();
    expect(failedTable()).toBeInTheDocument();

    await user.click(
      within(row(table, "mastodon.example")).getByRole("button", { name: "Retry now" }),
    );

    await screen.findByText("The failed deliveries to mastodon.example are being sent again.");
    expect(posts("/retry")).toEqual(["/account/hosts/mastodon.example/retry"]);
    await waitFor(() => expect(cells(table, "mastodon.example")[5]).toHaveTextContent(/^5$/));
    expect(
      screen.queryByRole("table", { name: "Failed deliveries to mastodon.example" }),
    ).toBeNull();
  });

  it("shows that an action waits for the server, with every action held until it answers", async () => {
    const { table, user } = await openDeliveries();
    let release = () => {};
    state.hosts.gate = new Promise<void>((done) => (release = done));

    await user.click(
      within(row(table, "mastodon.example")).getByRole("button", { name: "Retry now" }),
    );

    await screen.findByRole("progressbar", { name: "Retrying mastodon.example" });
    for (const button of within(table).getAllByRole("button")) expect(button).toBeDisabled();
    state.hosts.gate = null;
    release();
    await waitFor(() =>
      expect(screen.queryByRole("progressbar", { name: "Retrying mastodon.example" })).toBeNull(),
    );
    expect(
      within(row(table, "pixelfed.example")).getByRole("button", { name: "Retry now" }),
    ).toBeEnabled();
  });

  it("says in words when the server refuses an action", async () => {
    const { table, user } = await openDeliveries();
    // The list still shows the host, but the server no longer knows it.
    state.hosts.answer = { status: 200, body: state.hosts.hosts };
    state.hosts.hosts = state.hosts.hosts.filter((host) => host.host !== "pixelfed.example");

    await user.click(
      within(row(table, "pixelfed.example")).getByRole("button", { name: "Retry now" }),
    );

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Retry now for pixelfed.example failed: HTTP 404: No deliveries to pixelfed.example",
    );
  });

  it("lists the host's failed deliveries: inbox, status, attempts and last error", async () => {
    await openDeliveries();

    const [inbox, status, attempts, lastError] = cells(failedTable(), deadInbox);
    expect(inbox).toHaveTextContent(deadInbox);
    expect(status).toHaveTextContent(/^503$/);
    expect(attempts).toHaveTextContent(/^5$/);
    expect(lastError).toHaveTextContent("HTTP 503 Service Unavailable");
  });

  it("'Show call' links to the call that caused the delivery", async () => {
    await openDeliveries();

    expect(
      within(row(failedTable(), deadInbox)).getByRole("link", { name: "Show call" }),
    ).toHaveAttribute("href", "/perform?call=t-1");
  });

  it("'Redeliver' puts that inbox of that call back in the queue", async () => {
    recordTrigger();
    const { user } = await openDeliveries();

    await user.click(
      within(row(failedTable(), deadInbox)).getByRole("button", { name: "Redeliver" }),
    );

    await screen.findByText(`The delivery to ${deadInbox} is back in the queue.`);
    expect(state.triggers.redeliveries).toEqual([{ id: "t-1", inbox: deadInbox }]);
    const redeliver = fe().calls.find((call) => call.path === "/actor/triggers/t-1/redeliver");
    expect(redeliver?.body).toEqual({ inbox: deadInbox });
  });

  it("says why a redelivery failed", async () => {
    const { user } = await openDeliveries(); // no trigger t-1 on the server

    await user.click(
      within(row(failedTable(), deadInbox)).getByRole("button", { name: "Redeliver" }),
    );

    expect(await screen.findByRole("alert")).toHaveTextContent(
      `Redeliver to ${deadInbox} failed: HTTP 404: No such trigger`,
    );
  });
});
