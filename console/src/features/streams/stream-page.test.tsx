import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router";
import { getStreamStore, STREAM_TYPES } from "../../lib/streams/stream-store.ts";
import { StreamPage } from "./stream-page.tsx";

async function resetAllStreams() {
  for (const type of STREAM_TYPES) {
    const store = getStreamStore(type);
    await store.whenIdle();
    store.getState().reset();
    store.setState({ storageNote: null });
    await store.whenIdle();
  }
}

beforeEach(resetAllStreams);
afterEach(resetAllStreams);

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/stream" element={<StreamPage />} />
        <Route path="/stream/:streamType" element={<StreamPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

async function addMessages(type: "incoming" | "outgoing" | "error", messages: unknown[]) {
  const store = getStreamStore(type);
  await act(async () => {
    messages.forEach((message) => store.getState().add(message));
    await store.whenIdle();
  });
}

function activity(type: string, marker: string) {
  return { data: { parsed: { activity: { type, marker } } } };
}

describe("StreamPage", () => {
  it.each(["/stream", "/stream/other"])("says 'You should not be here' at %s", (path) => {
    renderAt(path);
    expect(screen.getByText("You should not be here")).toBeInTheDocument();
  });

  it("says 'Nothing to display' when the stream holds no messages", () => {
    renderAt("/stream/incoming");
    expect(screen.getByText("Nothing to display")).toBeInTheDocument();
  });

  it("shows each message of its own stream as a JSON tree, oldest first", async () => {
    await addMessages("outgoing", [{ marker: "first" }, { marker: "second" }]);
    await addMessages("incoming", [{ marker: "not-this-stream" }]);
    renderAt("/stream/outgoing");
    const cards = screen.getAllByTestId("stream-message");
    const trees = cards.map((card) => card.querySelector(".json-tree")?.textContent);
    expect(trees).toEqual(['marker: "first"', 'marker: "second"']);
  });

  it("renders only the messages on screen when 10,000 are held", async () => {
    await addMessages(
      "incoming",
      Array.from({ length: 10_000 }, (_, i) => ({ n: i })),
    );
    renderAt("/stream/incoming");
    const cards = screen.getAllByTestId("stream-message");
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThan(30);
    expect(cards[0]).toHaveTextContent("n: 0");
  });

  it("empties the stream with the Reset button", async () => {
    const user = userEvent.setup();
    await addMessages("error", [{ marker: "boom" }]);
    renderAt("/stream/error");
    await user.click(screen.getByRole("button", { name: "Reset" }));
    expect(await screen.findByText("Nothing to display")).toBeInTheDocument();
    expect(getStreamStore("error").getState().messages).toHaveLength(0);
  });

  it("filters by activity type, offering Don't filter plus the distinct types found", async () => {
    const user = userEvent.setup();
    await addMessages("incoming", [
      activity("Follow", "f1"),
      activity("Like", "l1"),
      activity("Follow", "f2"),
    ]);
    renderAt("/stream/incoming");
    const select = screen.getByRole("combobox", { name: "Select Type of Activity" });
    expect(select).toHaveTextContent("Don't filter");
    await user.click(select);
    const options = within(screen.getByRole("listbox")).getAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(["Don't filter", "Follow", "Like"]);
    await user.click(screen.getByRole("option", { name: "Like" }));
    const cards = screen.getAllByTestId("stream-message");
    expect(cards).toHaveLength(1);
    expect(cards[0]).toHaveTextContent("l1");
  });

  it("returns the filter to Don't filter when the chosen type disappears", async () => {
    const user = userEvent.setup();
    await addMessages("incoming", [activity("Follow", "f1"), activity("Like", "l1")]);
    renderAt("/stream/incoming");
    await user.click(screen.getByRole("combobox", { name: "Select Type of Activity" }));
    await user.click(screen.getByRole("option", { name: "Like" }));
    await user.click(screen.getByRole("button", { name: "Reset" }));
    await addMessages("incoming", [activity("Follow", "f3"), activity("Like", "l3")]);
    expect(screen.getByRole("combobox", { name: "Select Type of Activity" })).toHaveTextContent(
      "Don't filter",
    );
    expect(screen.getAllByTestId("stream-message")).toHaveLength(2);
  });

  it("shows the storage note when storage dropped messages", async () => {
    await addMessages("incoming", [{ a: 1 }]);
    act(() =>
      getStreamStore("incoming").setState({
        storageNote: "Browser storage is full: the 5 oldest messages were dropped.",
      }),
    );
    renderAt("/stream/incoming");
    expect(screen.getByRole("alert")).toHaveTextContent("the 5 oldest messages were dropped");
  });
});
