import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { PERFORM_HISTORY_KEY, usePerformHistory } from "../../lib/perform-history-store.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { chooseMethod, resetPerformState, setData } from "../../test/perform-ui.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { signIn } from "../../test/signed-in.ts";
import { alice, bob, sampleInfo, specRoutes } from "../../test/spec-fe.ts";
import { createTriggerBook } from "../../test/spec-triggers.ts";
import { setTriggerPollMs } from "./use-trigger-record.ts";

let fe: FeServer;
const state = { info: sampleInfo(), triggers: createTriggerBook() };

beforeAll(async () => {
  fe = await startFeServer(specRoutes(state));
  setFeBaseUrl(fe.url);
  setTriggerPollMs(20);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetPerformState();
  state.triggers = createTriggerBook([{ state: "done" }]);
  fe.calls.length = 0;
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const triggerPosts = () => fe.calls.filter((call) => call.path.startsWith("/actor/trigger/"));

async function makeTwoCalls() {
  signIn();
  const view = renderConsole("/perform");
  const user = userEvent.setup();
  await chooseMethod(user, "send_message");
  setData('{"data": "not an object"}');
  await user.click(screen.getByRole("button", { name: "Perform" }));
  const result = await screen.findByRole("region", { name: "Result" });
  expect(await within(result).findByRole("alert")).toHaveTextContent("failed (HTTP 422)");
  await chooseMethod(user, "update_actor");
  setData('{"profile": {"name": "Alice"}}');
  await user.click(screen.getByRole("button", { name: "Perform" }));
  await waitFor(() => expect(view.currentPath()).toBe("/perform?call=t-1"));
  const history = screen.getByRole("list", { name: "History" });
  return { user, view, history, items: () => within(history).getAllByRole("listitem") };
}

describe("perform history", () => {
  it("lists each call newest first with method, actor, time and outcome", async () => {
    const { items } = await makeTwoCalls();

    await waitFor(() =>
      expect(items()[0]).toHaveTextContent(/update_actor as alice, .*HTTP 202, done/),
    );
    expect(items()[1]).toHaveTextContent(
      /send_message as alice, .*failed \(HTTP 422\): the data has 1 problem/,
    );
    expect(items()).toHaveLength(2);
  });

  it("is kept across a reload", async () => {
    const first = await makeTwoCalls();
    await waitFor(() => expect(first.items()[0]).toHaveTextContent("done"));
    first.view.unmount();
    const saved = localStorage.getItem(PERFORM_HISTORY_KEY)!;
    resetPerformState();
    localStorage.setItem(PERFORM_HISTORY_KEY, saved);
    await usePerformHistory.persist.rehydrate();

    signIn();
    renderConsole("/perform");

    const items = within(screen.getByRole("list", { name: "History" })).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^update_actor as alice, .*HTTP 202, done/),
      expect.stringMatching(/^send_message as alice, .*failed \(HTTP 422\)/),
    ]);
  });

  it("'Run again' sends the same body at once, as the actor that made the call", async () => {
    const { user, items } = await makeTwoCalls();
    useUserStore.getState().setCurrentActor(bob.id);

    await user.click(within(items()[1]).getByRole("button", { name: "Run again" }));

    await waitFor(() => expect(triggerPosts()).toHaveLength(3));
    expect(triggerPosts()[2]).toMatchObject({
      path: "/actor/trigger/send_message",
      body: { actor: alice.id, data: "not an object" },
    });
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(items()[0]).toHaveTextContent(/^send_message as alice/);
  });

  it("'Edit' puts the method, the data and the actor back into the form", async () => {
    const { user, items } = await makeTwoCalls();
    useUserStore.getState().setCurrentActor(bob.id);
    setData("{}");

    await user.click(within(items()[1]).getByRole("button", { name: "Edit" }));

    expect(screen.getByRole("combobox", { name: "Method to perform" })).toHaveTextContent(
      "send_message",
    );
    const data = screen.getByRole("textbox", { name: "data" }) as HTMLTextAreaElement;
    expect(JSON.parse(data.value)).toEqual({ data: "not an object" });
    expect(screen.getByTestId("current-actor")).toHaveTextContent(`alice (${alice.id})`);
    expect(triggerPosts()).toHaveLength(2);
  });

  it("'Show call' on a recorded call opens its record", async () => {
    const { user, view, items } = await makeTwoCalls();
    await chooseMethod(user, "send_message");
    setData('{"data": "again"}');
    await user.click(screen.getByRole("button", { name: "Perform" }));
    await waitFor(() => expect(view.currentPath()).toBe("/perform"));

    await user.click(within(items()[1]).getByRole("link", { name: "Show call" }));

    expect(view.currentPath()).toBe("/perform?call=t-1");
    const result = screen.getByRole("region", { name: "Result" });
    await within(result).findByText(/update_actor as http/);
    expect(within(items()[0]).queryByRole("link", { name: "Show call" })).toBeNull();
  });
});
