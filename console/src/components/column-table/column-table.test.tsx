import { afterEach, describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import { screenOf } from "../../test/screen-width.ts";
import { ColumnTable, type Column } from "./column-table.tsx";

type Step = { name: string; ms: number | null; detail: string };

const rows: Step[] = [
  { name: "resolve", ms: 3, detail: "127.0.0.1" },
  { name: "inbox", ms: null, detail: "" },
];

const columns: Column<Step>[] = [
  { title: "Step", value: (row) => row.name },
  { title: "Time (ms)", value: (row) => row.ms },
  { title: "Detail", value: (row) => row.detail },
  { title: "", value: (row) => <button type="button">Again {row.name}</button> },
];

afterEach(() => vi.unstubAllGlobals());

describe("ColumnTable", () => {
  it("below 600 px shows each row as a block of fields labelled as the table's headers, its buttons after them", () => {
    screenOf(390);
    render(<ColumnTable label="Check steps" rows={rows} columns={columns} />);

    expect(screen.queryByRole("table")).toBeNull();
    const items = within(screen.getByRole("list", { name: "Check steps" })).getAllByRole(
      "listitem",
    );
    const fields = items.map((item) => {
      const values = within(item).getAllByRole("definition");
      return within(item)
        .getAllByRole("term")
        .map((term, i) => [term.textContent, values[i]?.textContent]);
    });
    expect(fields).toEqual([
      [
        ["Step", "resolve"],
        ["Time (ms)", "3"],
        ["Detail", "127.0.0.1"],
      ],
      [
        ["Step", "inbox"],
        ["Time (ms)", "—"],
        ["Detail", "—"],
      ],
    ]);
    const again = within(items[1]!).getByRole("button", { name: "Again inbox" });
    expect(again.closest("dl")).toBeNull();
  });

  it("from 600 px keeps the table, a cell per column, empty where a block says —", () => {
    screenOf(600);
    render(<ColumnTable label="Check steps" rows={rows} columns={columns} />);

    expect(screen.queryByRole("list")).toBeNull();
    const table = screen.getByRole("table", { name: "Check steps" });
    const [head, ...body] = within(table).getAllByRole("row");
    expect(
      within(head!)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Step", "Time (ms)", "Detail", ""]);
    expect(
      within(body[1]!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["inbox", "", "", "Again inbox"]);
  });
});
