import { describe, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { JsonTree } from "./json-tree.tsx";

function ShowLocation() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

function renderTree(data: unknown) {
  return render(
    <MemoryRouter initialEntries={["/start"]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <JsonTree data={data} />
              <ShowLocation />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

function rowTexts(container: HTMLElement): string[] {
  return [...container.querySelectorAll(".jt-row")].map((row) => row.textContent ?? "");
}

describe("JsonTree", () => {
  it("shows keys sorted", () => {
    const { container } = renderTree({ zeta: 1, alpha: 2, mid: 3 });
    expect(rowTexts(container)).toEqual(["alpha: 2", "mid: 3", "zeta: 1"]);
  });

  it("hides data type labels", () => {
    const { container } = renderTree({ count: 3, name: "x", flag: true, nothing: null });
    expect(container.textContent).not.toMatch(/\b(int|string|bool|float)\b/);
    expect(rowTexts(container)).toContain("count: 3");
  });

  it("starts @context, context, signature, publicKey and proof collapsed and everything else open", () => {
    const inner = { secret: "hidden-value" };
    renderTree({
      "@context": inner,
      context: inner,
      signature: inner,
      publicKey: inner,
      proof: inner,
      object: { visible: "shown-value" },
    });
    for (const key of ["@context", "context", "signature", "publicKey", "proof"]) {
      expect(screen.getByRole("button", { name: `Expand ${key}` })).toHaveAttribute(
        "aria-expanded",
        "false",
      );
    }
    expect(screen.getByRole("button", { name: "Collapse object" })).toBeInTheDocument();
    expect(screen.queryByText(/hidden-value/)).not.toBeInTheDocument();
    expect(screen.getByText(/shown-value/)).toBeInTheDocument();
  });

  it("expands and collapses a key from the keyboard", async () => {
    const user = userEvent.setup();
    renderTree({ publicKey: { id: "key-id-value" } });
    screen.getByRole("button", { name: "Expand publicKey" }).focus();
    await user.keyboard("{Enter}");
    expect(screen.getByText(/key-id-value/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Collapse publicKey" })).toHaveFocus();
    await user.keyboard(" ");
    expect(screen.queryByText(/key-id-value/)).not.toBeInTheDocument();
  });

  it("groups arrays longer than 100 items into collapsed chunks of 100", async () => {
    const user = userEvent.setup();
    renderTree({ items: Array.from({ length: 250 }, (_, i) => `item-${i}`) });
    expect(screen.getByRole("button", { name: "Expand [0…99]" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Expand [100…199]" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Expand [200…249]" })).toBeInTheDocument();
    expect(screen.queryByText(/item-150/)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Expand [100…199]" }));
    expect(screen.getByText('"item-150"')).toBeInTheDocument();
    expect(screen.queryByText(/item-50"/)).not.toBeInTheDocument();
  });

  it("shows arrays of 100 items or fewer without groups", () => {
    renderTree({ items: Array.from({ length: 100 }, (_, i) => i) });
    expect(screen.queryByRole("button", { name: /\[0…99\]/ })).not.toBeInTheDocument();
    expect(screen.getByText("99")).toBeInTheDocument();
  });

  it("navigates to the lookup page when an absolute http(s) URL value is clicked", async () => {
    const user = userEvent.setup();
    const url = "https://remote.example/users/alice?x=1&y=2";
    renderTree({ id: url });
    await user.click(screen.getByRole("link", { name: url }));
    expect(screen.getByTestId("location")).toHaveTextContent(
      `/lookup?uri=${encodeURIComponent(url)}`,
    );
  });

  it("navigates from a URL value with the keyboard", async () => {
    const user = userEvent.setup();
    renderTree({ id: "http://remote.example/a" });
    screen.getByRole("link", { name: "http://remote.example/a" }).focus();
    await user.keyboard("{Enter}");
    expect(screen.getByTestId("location")).toHaveTextContent(
      "/lookup?uri=http%3A%2F%2Fremote.example%2Fa",
    );
  });

  it("renders javascript:, relative, other-scheme and non-URL strings as plain text", async () => {
    const user = userEvent.setup();
    const { container } = renderTree({
      a: "javascript:alert(1)",
      b: "/users/alice",
      c: "mailto:alice@example.com",
      d: "just words",
      e: "ftp://files.example/x",
      f: "https://",
    });
    expect(screen.queryAllByRole("link")).toHaveLength(0);
    for (const row of container.querySelectorAll(".jt-row")) await user.click(row);
    expect(screen.getByTestId("location")).toHaveTextContent("/start");
  });

  it("shows a primitive or empty document as a single value", () => {
    const { container, rerender } = renderTree("hello");
    expect(rowTexts(container)).toEqual(['"hello"']);
    rerender(
      <MemoryRouter>
        <JsonTree data={{}} />
      </MemoryRouter>,
    );
    expect(rowTexts(container)).toEqual(["{}"]);
  });

  it("starts a new document from the default collapse state", async () => {
    const user = userEvent.setup();
    const view = renderTree({ publicKey: { id: "first" } });
    await user.click(screen.getByRole("button", { name: "Expand publicKey" }));
    view.rerender(
      <MemoryRouter>
        <JsonTree data={{ publicKey: { id: "second" } }} />
      </MemoryRouter>,
    );
    expect(screen.getByRole("button", { name: "Expand publicKey" })).toBeInTheDocument();
    expect(screen.queryByText(/second/)).not.toBeInTheDocument();
  });

  it("keeps toggles working by keyboard when a large tree is virtualised", async () => {
    const user = userEvent.setup();
    const data: Record<string, unknown> = Object.fromEntries(
      Array.from({ length: 500 }, (_, i) => [`k${String(i).padStart(3, "0")}`, i]),
    );
    data["a-publicKey-holder"] = { publicKey: { publicKeyPem: "PEM-TEXT" } };
    const { container } = renderTree(data);
    expect(container.querySelectorAll(".jt-row").length).toBeLessThan(200);
    screen.getByRole("button", { name: "Expand publicKey" }).focus();
    await user.keyboard("{Enter}");
    expect(screen.getByText('"PEM-TEXT"')).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Collapse publicKey" })).toHaveFocus();
  });

  it("renders only the rows on screen for an object with 10,000 keys", () => {
    const data = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`key${String(i).padStart(5, "0")}`, i]),
    );
    const started = performance.now();
    const { container } = renderTree(data);
    const elapsed = performance.now() - started;
    const rows = container.querySelectorAll(".jt-row");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(200);
    expect(within(container).getByText("key00000:", { exact: false })).toBeInTheDocument();
    expect(elapsed).toBeLessThan(2_000);
  });

  it.each([3_000, 100_000])("renders a document nested %i levels deep", (levels) => {
    let data: unknown = "bottom-value";
    for (let level = 0; level < levels; level++) data = { level: data };
    const { container } = renderTree(data);
    const rows = container.querySelectorAll(".jt-row");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(200);
    expect(rows[0]).toHaveTextContent("level");
  });

  it("starts branches at collapseBelowDepth or deeper collapsed", () => {
    render(
      <MemoryRouter>
        <JsonTree
          data={{ data: { parsed: { activity: { type: "Like" } } } }}
          collapseBelowDepth={1}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole("button", { name: "Collapse data" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Expand parsed" })).toBeInTheDocument();
    expect(screen.queryByText(/Like/)).not.toBeInTheDocument();
  });

  it("a click anywhere on a collapsed row (its {…}, its size) expands it, and once only", async () => {
    render(
      <MemoryRouter>
        <JsonTree data={{ data: { parsed: { type: "Like" } }, list: [1] }} collapseBelowDepth={0} />
      </MemoryRouter>,
    );
    const user = userEvent.setup();
    const dataRow = screen.getByRole("button", { name: "Expand data" }).parentElement!;
    await user.click(within(dataRow).getByText(/\{…\}/));
    expect(screen.getByRole("button", { name: "Collapse data" })).toBeInTheDocument();
    const parsedRow = screen.getByRole("button", { name: "Expand parsed" }).parentElement!;
    await user.click(within(parsedRow).getByText("1 key"));
    expect(screen.getByRole("button", { name: "Collapse parsed" })).toBeInTheDocument();
    // The key's own button toggles exactly once (the row does not toggle it back).
    await user.click(screen.getByRole("button", { name: "Expand list" }));
    expect(screen.getByRole("button", { name: "Collapse list" })).toBeInTheDocument();
    expect(screen.getByText("Like", { exact: false })).toBeInTheDocument();
  });

  it("offers Find in document only over 200 rows", () => {
    const small = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    const view = renderTree(small);
    expect(screen.queryByRole("textbox", { name: "Find in document" })).not.toBeInTheDocument();
    view.unmount();
    renderTree({ ...small, more: Array.from({ length: 60 }, (_, i) => i) });
    expect(screen.getByRole("textbox", { name: "Find in document" })).toBeInTheDocument();
  });

  it("finds text in keys and values, opens the collapsed branches holding it and counts the matches", async () => {
    const user = userEvent.setup();
    const data: Record<string, unknown> = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`k${String(i).padStart(3, "0")}`, i]),
    );
    data.publicKey = { owner: "https://remote.example/needle-owner" };
    data.items = Array.from({ length: 150 }, (_, i) => (i === 120 ? "a NEEDLE in a group" : i));
    data.needleKey = true;
    renderTree(data);
    expect(screen.queryByText(/needle-owner/)).not.toBeInTheDocument();
    const find = screen.getByRole("textbox", { name: "Find in document" });

    await user.type(find, "needle");

    expect(await screen.findByText("3 matches")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Collapse publicKey" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Collapse [100…149]" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Expand [0…99]" })).toBeInTheDocument();
    expect(screen.getByText("needle-owner", { exact: false })).toBeInTheDocument();
    expect(document.querySelectorAll(".jt-match")).toHaveLength(3);
    expect(document.querySelector(".jt-match-current")).toHaveTextContent("a NEEDLE in a group");
    await user.keyboard("{Enter}");
    expect(document.querySelector(".jt-match-current")).toHaveTextContent("needleKey");
    await user.clear(find);
    expect(await screen.findByRole("button", { name: "Expand publicKey" })).toBeInTheDocument();
  });
});
