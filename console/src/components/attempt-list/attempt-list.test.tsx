import { afterEach, describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { formatMoment } from "../../lib/format-moment.ts";
import type { DeliveryAttempt } from "../../lib/wire-types.ts";
import { screenOf } from "../../test/screen-width.ts";
import { AttemptList } from "./attempt-list.tsx";

const inbox = "https://mastodon.example/users/zoe/inbox";
const attempts: DeliveryAttempt[] = [
  {
    at: "2026-11-25T03:01:00Z",
    inbox,
    status: 503,
    durationMs: 10,
    error: "answered 503 Service Unavailable",
    response: "<html>Busy",
  },
  { at: "2026-11-25T03:02:00Z", inbox, status: null, durationMs: 20, error: null, response: null },
];

afterEach(() => vi.unstubAllGlobals());

/** Each block's labels and values, in order. */
function blocks(list: HTMLElement): [string, string][][] {
  return within(list)
    .getAllByRole("listitem")
    .map((item) => {
      const terms = within(item).getAllByRole("term");
      const values = within(item).getAllByRole("definition");
      return terms.map((term, i) => [term.textContent ?? "", values[i]?.textContent ?? ""]);
    });
}

describe("AttemptList", () => {
  it("below 600 px shows each attempt as a block of fields labelled as the table's columns", () => {
    screenOf(390);
    render(<AttemptList label="Attempts to zoe" attempts={attempts} numbered />);

    expect(screen.queryByRole("table")).toBeNull();
    expect(blocks(screen.getByRole("list", { name: "Attempts to zoe" }))).toEqual([
      [
        ["#", "1"],
        ["Time", formatMoment("2026-11-25T03:01:00Z")],
        ["Status", "503"],
        ["Duration (ms)", "10"],
        ["Error", "answered 503 Service Unavailable"],
        ["Answer", "<html>Busy"],
      ],
      [
        ["#", "2"],
        ["Time", formatMoment("2026-11-25T03:02:00Z")],
        ["Status", "no answer"],
        ["Duration (ms)", "20"],
        ["Error", "—"],
        ["Answer", "—"],
      ],
    ]);
  });

  it("below 600 px names each attempt's inbox when asked to, after its time", () => {
    screenOf(390);
    render(<AttemptList label="Newest attempts" attempts={attempts.slice(0, 1)} withInbox />);

    const [block] = blocks(screen.getByRole("list", { name: "Newest attempts" }));
    expect(block!.map(([label]) => label)).toEqual([
      "Time",
      "Inbox",
      "Status",
      "Duration (ms)",
      "Error",
      "Answer",
    ]);
    expect(block![1]).toEqual(["Inbox", inbox]);
  });

  it("from 600 px keeps the table, its headers the blocks' labels", () => {
    screenOf(600);
    render(<AttemptList label="Newest attempts" attempts={attempts} withInbox />);

    expect(screen.queryByRole("list")).toBeNull();
    const table = screen.getByRole("table", { name: "Newest attempts" });
    const [head, ...rows] = within(table).getAllByRole("row");
    expect(
      within(head!)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Time", "Inbox", "Status", "Duration (ms)", "Error", "Answer"]);
    expect(
      within(rows[1]!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual([formatMoment("2026-11-25T03:02:00Z"), inbox, "no answer", "20", "", ""]);
  });
});
