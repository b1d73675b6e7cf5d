import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router";
import { getConnectionStore } from "../../lib/streams/stream-connection.ts";
import { resetPerformDraft, usePerformDraftStore } from "../../lib/perform-draft-store.ts";
import { usePerformHistory } from "../../lib/perform-history-store.ts";
import { getStreamStore, STREAM_TYPES, type StreamType } from "../../lib/streams/stream-store.ts";
import { AllStreamsPage, StreamPage } from "./stream-page.tsx";
import { useViewPreferences, VIEW_PREFERENCES_KEY } from "./view-preferences.ts";

async function resetAll() {
  for (const type of STREAM_TYPES) {
    const store = getStreamStore(type);
    await store.whenIdle();
    store.getState().reset();
    getConnectionStore(type).setState({ markers: [], status: { kind: "idle" } });
    await store.whenIdle();
  }
  act(() => useViewPreferences.setState({ compact: false, newestFirst: false }));
}
beforeEach(resetAll);
afterEach(resetAll);

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/stream/all" element={<AllStreamsPage />} />
        <Route path="/stream/:streamType" element={<StreamPage />} />
        <Route path="/perform" element={<p>perform page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

async function add(type: StreamType, messages: unknown[]) {
  const store = getStreamStore(type);
  await act(async () => {
    messages.forEach((message) => store.getState().add(message));
    await store.whenIdle();
  });
}

const note = (content: string, type = "Create") => ({
  data: {
    parsed: { activity: { type, actor: "https://m.example/users/ann", object: { content } } },
  },
});
const treeTexts = () =>
  screen.queryAllByTestId("stream-message").map((c) => c.querySelector(".json-tree")!.textContent);
const summaries = () => screen.queryAllByTestId("message-summary").map((s) => s.textContent);

describe("stream page controls", () => {
  it("searches the message JSON ignoring case, with the type filter, and says N of M", async () => {
    const user = userEvent.setup();
    await add("incoming", [note("Hello world"), note("other"), note("hello again", "Like")]);
    renderAt("/stream/incoming");
    expect(screen.getByTestId("shown-count")).toHaveTextContent("3 of 3");
    await user.type(screen.getByRole("searchbox", { name: "Search messages" }), "HELLO");
    await waitFor(() => expect(screen.getByTestId("shown-count")).toHaveTextContent("2 of 3"));
    await user.click(screen.getByRole("combobox", { name: "Select Type of Activity" }));
    await user.click(screen.getByRole("option", { name: "Like" }));
    expect(screen.getByTestId("shown-count")).toHaveTextContent("1 of 3");
    expect(treeTexts()[0]).toContain("hello again");
  });

  it("shows a summary line: time, type and who", async () => {
    await add("incoming", [note("x", "Follow")]);
    renderAt("/stream/incoming");
    expect(summaries()[0]).toMatch(/^\d\d:\d\d:\d\dFollow@ann@m\.example/);
  });

  it("pauses: new messages are counted as N new, and Resume lists them all", async () => {
    const user = userEvent.setup();
    await add("error", [{ n: 1 }]);
    renderAt("/stream/error");
    await user.click(screen.getByRole("button", { name: "Pause" }));
    await add("error", [{ n: 2 }, { n: 3 }]);
    expect(treeTexts()).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "2 new" }));
    expect(treeTexts()).toHaveLength(3);
    expect(screen.getByRole("button", { name: "Pause" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /new$/ })).toBeNull();
  });

  it("answers the keys: / focuses search, Escape clears it, p toggles pause", async () => {
    const user = userEvent.setup();
    await add("error", [{ n: 1 }]);
    renderAt("/stream/error");
    const search = screen.getByRole("searchbox", { name: "Search messages" });
    await user.keyboard("/");
    expect(search).toHaveFocus();
    await user.keyboard("zzz");
    expect(search).toHaveValue("zzz");
    await user.keyboard("{Escape}");
    expect(search).toHaveValue("");
    search.blur();
    await user.keyboard("p");
    expect(screen.getByRole("button", { name: "Resume" })).toBeInTheDocument();
    await user.keyboard("p");
    expect(screen.getByRole("button", { name: "Pause" })).toBeInTheDocument();
  });

  it("remembers Newest first and Compact", async () => {
    const user = userEvent.setup();
    await add("error", [{ n: "first", nested: { deep: 1 } }, { n: "second" }]);
    renderAt("/stream/error");
    await user.click(screen.getByRole("switch", { name: "Newest first" }));
    expect(treeTexts()[0]).toContain("second");
    await user.click(screen.getByRole("switch", { name: "Compact" }));
    expect(JSON.parse(localStorage.getItem(VIEW_PREFERENCES_KEY)!)).toMatchObject({
      state: { compact: true, newestFirst: true },
    });
  });

  it("on All, merges the streams in arrival order and labels each message", async () => {
    // Arrival times are in milliseconds: a little apart, so the order is the arrival order.
    const apart = () => new Promise((resolve) => setTimeout(resolve, 5));
    await add("outgoing", [{ n: "out" }]);
    await apart();
    await add("error", [{ n: "err" }]);
    await apart();
    await add("incoming", [{ n: "in" }]);
    renderAt("/stream/all");
    expect(summaries().map((s) => s!.split(/\d/)[0])).toEqual(["Outgoing", "Error", "Incoming"]);
    expect(screen.getByTestId("shown-count")).toHaveTextContent("3 of 3");
  });

  it("links a message with a trigger id to its call, and shows reconnect markers", async () => {
    const user = userEvent.setup();
    await add("outgoing", [{ trigger_id: "abc 1" }]);
    renderAt("/stream/outgoing");
    act(() =>
      getConnectionStore("outgoing").setState({
        markers: [{ kind: "replayed", key: "m", at: Date.now() + 1000, count: 3 }],
      }),
    );
    expect(screen.getByTestId("stream-marker")).toHaveTextContent(
      "Reconnected: 3 missed messages replayed",
    );
    await user.click(
      within(screen.getByTestId("stream-message")).getByRole("link", { name: "Show call" }),
    );
    expect(screen.getByText("perform page")).toBeInTheDocument();
  });

  it("marks the message a call's record links to (?event=N), or says it is not listed", async () => {
    const store = getStreamStore("outgoing");
    await act(async () => {
      store.getState().add(note("six"), "6");
      store.getState().add(note("seven"), "7");
      await store.whenIdle();
    });
    const view = renderAt("/stream/outgoing?event=7");
    const marked = screen
      .getAllByTestId("stream-message")
      .filter((card) => card.getAttribute("aria-current") === "true");
    expect(marked.map((card) => card.querySelector(".json-tree")!.textContent)).toEqual([
      expect.stringContaining("seven"),
    ]);
    expect(screen.queryByText(/is not among the messages listed here/)).toBeNull();
    view.unmount();

    renderAt("/stream/outgoing?event=99");
    // Not held: the server is asked for it by id (none answers here, which the note says).
    await screen.findByText(/Message 99 is not among the messages listed here/);
    expect(
      screen.getAllByTestId("stream-message").filter((c) => c.hasAttribute("aria-current")),
    ).toEqual([]);
  });

  it("says a server search waits, and why it failed, while listing the held matches", async () => {
    const user = userEvent.setup();
    await add("incoming", [note("Hello world"), note("other")]);
    renderAt("/stream/incoming");
    await user.type(screen.getByRole("searchbox", { name: "Search messages" }), "hello");
    // Nothing answers /fe here: the search waits, then says it failed, in words.
    expect(screen.getByTestId("shown-count")).toHaveTextContent("Searching…");
    await screen.findByText(/Searching what the server keeps failed: .+/);
    expect(screen.getByTestId("shown-count")).toHaveTextContent("1 of 2");
  });

  it("Compact lists one line per message and opens its tree on a click or Enter", async () => {
    const user = userEvent.setup();
    act(() => useViewPreferences.setState({ compact: true }));
    await add("incoming", [note("first words"), note("second words")]);
    renderAt("/stream/incoming");
    expect(document.querySelectorAll(".json-tree")).toHaveLength(0);
    const [first, second] = screen
      .getAllByTestId("stream-message")
      .map((card) => within(card).getByRole("button", { expanded: false }));
    expect(first).toHaveTextContent(/^\d\d:\d\d:\d\dCreate@ann@m\.example$/);
    await user.click(first!);
    expect(first).toHaveAttribute("aria-expanded", "true");
    const trees = () => [...document.querySelectorAll(".json-tree")].map((t) => t.textContent);
    expect(trees()).toEqual([expect.stringContaining("first words")]);
    await user.click(first!);
    expect(document.querySelectorAll(".json-tree")).toHaveLength(0);
    second!.focus();
    await user.keyboard("{Enter}");
    expect(second).toHaveAttribute("aria-expanded", "true");
    expect(trees()).toEqual([expect.stringContaining("second words")]);
  });

  it("Open in Perform fills send_message with the activity, its id removed", async () => {
    const user = userEvent.setup();
    resetPerformDraft();
    const activity = { id: "https://m.example/a/1", type: "Create", object: { content: "x" } };
    await add("incoming", [{ actor: "https://us.example/actor/bob", data: { raw: activity } }]);
    renderAt("/stream/incoming");
    await user.click(screen.getByRole("button", { name: "Open in Perform" }));
    expect(screen.getByText("perform page")).toBeInTheDocument();
    const { method, text } = usePerformDraftStore.getState();
    expect(method).toBe("send_message");
    expect(JSON.parse(text)).toEqual({ data: { type: "Create", object: { content: "x" } } });
  });

  it("Open in Perform opens the call a message's trigger id names, from Perform's history", async () => {
    const user = userEvent.setup();
    resetPerformDraft();
    const body = { actor: "https://us.example/actor/bob", profile: { name: "Bob" } };
    act(() =>
      usePerformHistory.setState({
        calls: [
          {
            key: "k",
            method: "update_actor",
            body,
            at: new Date().toISOString(),
            outcome: { kind: "recorded", status: 202, triggerId: "t-9", summary: null },
          },
        ],
      }),
    );
    await add("outgoing", [{ actor: body.actor, trigger_id: "t-9", data: { raw: {} } }]);
    renderAt("/stream/outgoing");
    await user.click(screen.getByRole("button", { name: "Open in Perform" }));
    expect(screen.getByText("perform page")).toBeInTheDocument();
    expect(usePerformDraftStore.getState().method).toBe("update_actor");
    expect(JSON.parse(usePerformDraftStore.getState().text)).toEqual({ profile: { name: "Bob" } });
    act(() => usePerformHistory.setState({ calls: [] }));
  });
});
