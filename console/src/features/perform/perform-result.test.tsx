import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import type { TriggerDelivery, TriggerRecord } from "../../lib/trigger-record.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { chooseMethod, resetPerformState, setData } from "../../test/perform-ui.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { signIn } from "../../test/signed-in.ts";
import { alice, sampleInfo, specRoutes } from "../../test/spec-fe.ts";
import { createTriggerBook, type TriggerBook } from "../../test/spec-triggers.ts";
import { setTriggerPollMs } from "./use-trigger-record.ts";

let fe: FeServer;
const state = { info: sampleInfo(), triggers: createTriggerBook() };

const inboxes = ["https://a.example/inbox", "https://b.example/inbox", "https://c.example/inbox"];
function delivery(inbox: string, change: Partial<TriggerDelivery> = {}): TriggerDelivery {
  const base = { state: "queued", status: null, attempts: 0, lastError: null } as const;
  return { inbox, ...base, nextAttemptAt: null, deliveredAt: null, ...change };
}
// Three recipients: one answers 202, one 500 (retried), one never answers (given up).
const running: Partial<TriggerRecord> = {
  state: "running",
  deliveries: inboxes.map((inbox) => delivery(inbox)),
};
const outcomes: Partial<TriggerRecord> = {
  state: "done",
  deliveries: [
    delivery(inboxes[0], {
      state: "delivered",
      status: 202,
      attempts: 1,
      deliveredAt: "2026-11-25T03:00:00Z",
    }),
    delivery(inboxes[1], {
      state: "retrying",
      status: 500,
      attempts: 1,
      lastError: "HTTP 500",
      nextAttemptAt: "2026-11-25T03:05:00Z",
    }),
    delivery(inboxes[2], { state: "failed", attempts: 5, lastError: "connect ECONNREFUSED" }),
  ],
  events: [
    { stream: "outgoing", id: 7 },
    { stream: "error", id: 8 },
  ],
};

beforeAll(async () => {
  fe = await startFeServer(specRoutes(state));
  setTriggerPollMs(20);
});
afterAll(() => fe.close());
afterEach(() => vi.restoreAllMocks());
beforeEach(() => {
  resetPerformState();
  state.triggers = createTriggerBook();
  setFeBaseUrl(fe.url);
  fe.calls.length = 0;
  vi.spyOn(console, "log").mockImplementation(() => {});
});

async function performSendMessage(data: string, triggers: TriggerBook = state.triggers) {
  state.triggers = triggers;
  signIn();
  const view = renderConsole("/perform");
  const user = userEvent.setup();
  await chooseMethod(user, "send_message");
  setData(data);
  await user.click(screen.getByRole("button", { name: "Perform" }));
  const result = await screen.findByRole("region", { name: "Result" });
  await waitFor(() => expect(within(result).queryByText(/^Sending/)).toBeNull());
  return { user, view, result };
}

function row(table: HTMLElement, inbox: string): HTMLElement {
  return within(table).getByRole("row", { name: new RegExp(inbox.replaceAll(".", "\\.")) });
}

describe("perform result", () => {
  it("shows each loc and msg of a 422 and never says accepted", async () => {
    const { result } = await performSendMessage('{"data": "oops"}');

    const alert = await within(result).findByRole("alert");
    expect(alert).toHaveTextContent("send_message: failed (HTTP 422): the data has 1 problem");
    expect(alert).toHaveTextContent("body.data: must be a JSON object");
    expect(result).not.toHaveTextContent(/accepted/i);
  });

  it("says in words that the server could not be reached", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {}); // the streams' reconnect notices
    const closed = await startFeServer({});
    await closed.close();
    setFeBaseUrl(closed.url);

    const { result } = await performSendMessage('{"data": {}}');

    expect(await within(result).findByRole("alert")).toHaveTextContent(
      /send_message: no answer, the server could not be reached/,
    );
  });

  it("says a 202 without a trigger id was handed over and outcomes appear on the streams", async () => {
    const proxy = createTriggerBook();
    proxy.proxyMode = true;

    const { result } = await performSendMessage('{"data": {}}', proxy);

    await within(result).findByText(/send_message: handed over \(HTTP 202\)/);
    expect(result).toHaveTextContent("its outcomes appear on the Outgoing and Error streams");
    expect(within(result).getByRole("link", { name: "Outgoing" })).toHaveAttribute(
      "href",
      "/stream/outgoing",
    );
  });

  it("shows the call live: delivered, retrying (500) and failed rows, waiting while not final", async () => {
    const book = createTriggerBook([running, outcomes]);
    const { result, view } = await performSendMessage('{"data": {"type": "Note"}}', book);

    await waitFor(() => expect(view.currentPath()).toBe("/perform?call=t-1"));
    const table = await within(result).findByRole("table", { name: "Deliveries" });
    await waitFor(() => expect(row(table, inboxes[0])).toHaveTextContent("delivered"));
    expect(within(result).getByTestId("trigger-state")).toHaveTextContent(
      "State: done: 1 delivered, 1 retrying, 1 failed",
    );
    // Still retrying, so still watched.
    expect(
      within(result).getByRole("progressbar", { name: "Watching the call" }),
    ).toBeInTheDocument();
    expect(row(table, inboxes[1])).toHaveTextContent(/retrying\s*500\s*1\s*HTTP 500/);
    expect(row(table, inboxes[2])).toHaveTextContent(/failed\s*—\s*5\s*connect ECONNREFUSED/);
    expect(within(row(table, inboxes[0])).queryByRole("button", { name: "Redeliver" })).toBeNull();
    expect(within(result).getByRole("link", { name: "Outgoing message 7" })).toHaveAttribute(
      "href",
      "/stream/outgoing?event=7",
    );
    expect(within(result).getByRole("link", { name: "Error message 8" })).toBeInTheDocument();
  });

  it("'Redeliver' sends a failed row again and the row follows it to delivered", async () => {
    const book = createTriggerBook([running, outcomes]);
    const { result, user } = await performSendMessage('{"data": {"type": "Note"}}', book);
    const table = await within(result).findByRole("table", { name: "Deliveries" });
    await waitFor(() => expect(row(table, inboxes[2])).toHaveTextContent("failed"));

    await user.click(within(row(table, inboxes[2])).getByRole("button", { name: "Redeliver" }));

    await waitFor(() => expect(book.redeliveries).toEqual([{ id: "t-1", inbox: inboxes[2] }]));
    await waitFor(() => expect(row(table, inboxes[2])).toHaveTextContent("queued"));
    const record = book.records.get("t-1")!;
    book.records.set("t-1", {
      ...record,
      deliveries: record.deliveries.map((d) =>
        d.inbox === inboxes[0]
          ? d
          : { ...d, state: "delivered", status: 200, attempts: d.attempts + 1 },
      ),
    });
    await waitFor(() => expect(row(table, inboxes[2])).toHaveTextContent(/delivered\s*200\s*6/));
    // Everything final: the page stops watching.
    await waitFor(() =>
      expect(within(result).queryByRole("progressbar", { name: "Watching the call" })).toBeNull(),
    );
    expect(within(table).queryByRole("button", { name: "Redeliver" })).toBeNull();
  });

  it("'Show attempts' opens a row's attempts timeline: time, status, duration, error, answer", async () => {
    const attempt = (
      n: number,
      status: number | null,
      error: string | null,
      response: string | null,
    ) => ({
      at: `2026-11-25T03:0${n}:00Z`,
      inbox: inboxes[1],
      status,
      durationMs: 10 * n,
      error,
      response,
    });
    const retried: Partial<TriggerRecord> = {
      ...outcomes,
      deliveries: [
        delivery(inboxes[1], {
          state: "delivered",
          status: 202,
          attempts: 3,
          attemptLog: [
            attempt(1, 503, "answered 503 Service Unavailable", "<html>Busy"),
            attempt(2, null, "could not be reached: ECONNRESET", null),
            attempt(3, 202, null, null),
          ],
        }),
        delivery(inboxes[0], { state: "delivered", status: 202, attempts: 1 }),
      ],
    };
    const book = createTriggerBook([retried]);
    const { result, user } = await performSendMessage('{"data": {"type": "Note"}}', book);
    const table = await within(result).findByRole("table", { name: "Deliveries" });
    // Found before a timeline opens: an open one's table is named after its inbox too.
    await waitFor(() => expect(row(table, inboxes[1])).toHaveTextContent("delivered"));
    const rowB = row(table, inboxes[1]);
    const rowA = row(table, inboxes[0]);
    const show = within(rowB).getByRole("button", { name: "Show attempts" });
    expect(show).toHaveAttribute("aria-expanded", "false");

    await user.click(show);

    const timeline = within(result).getByRole("table", { name: `Attempts to ${inboxes[1]}` });
    const cells = within(timeline)
      .getAllByRole("row")
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole("cell")
          .map((cell) => cell.textContent),
      );
    expect(cells.map((c) => [c[0], c[2], c[3], c[4], c[5]])).toEqual([
      ["1", "503", "10", "answered 503 Service Unavailable", "<html>Busy"],
      ["2", "no answer", "20", "could not be reached: ECONNRESET", ""],
      ["3", "202", "30", "", ""],
    ]);
    // A server that lists no attempts says so instead of showing an empty table.
    await user.click(within(rowA).getByRole("button", { name: "Show attempts" }));
    expect(within(result).getByText("The server does not list each attempt.")).toBeInTheDocument();
    await user.click(within(rowB).getByRole("button", { name: "Hide attempts" }));
    expect(within(result).queryByRole("table", { name: `Attempts to ${inboxes[1]}` })).toBeNull();
  });

  it("opens /perform?call=<id> from the address by fetching the record", async () => {
    state.triggers.records.set("t-9", {
      id: "t-9",
      method: "update_actor",
      actor: alice.id,
      receivedAt: "2026-11-25T02:00:00Z",
      state: "failed",
      error: "update_actor: profile.icon is not a URL",
      deliveries: [],
      events: [{ stream: "error", id: 3 }],
    });
    signIn();
    renderConsole("/perform?call=t-9");

    const result = await screen.findByRole("region", { name: "Result" });
    await within(result).findByText(`update_actor as ${alice.id}`, { exact: false });
    expect(within(result).getByTestId("trigger-state")).toHaveTextContent("State: failed");
    expect(within(result).getByRole("alert")).toHaveTextContent("profile.icon is not a URL");
    expect(within(result).getByRole("link", { name: "Error message 3" })).toBeInTheDocument();
  });

  it("says so when the call in the address is not the account's", async () => {
    signIn();
    renderConsole("/perform?call=t-404");

    const result = await screen.findByRole("region", { name: "Result" });
    expect(
      await within(result).findByText(/Could not read call t-404: HTTP 404: No such trigger/),
    ).toBeInTheDocument();
    expect(within(result).queryByRole("progressbar")).toBeNull();
  });
});
