import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import {
  PERFORM_DRAFT_KEY,
  resetPerformDraft,
  usePerformDraftStore,
} from "../../lib/perform-draft-store.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { chooseMethod, resetPerformState, setData } from "../../test/perform-ui.ts";
import { signIn } from "../../test/signed-in.ts";
import { alice, sampleInfo, specRoutes } from "../../test/spec-fe.ts";

let fe: FeServer;

beforeAll(async () => {
  fe = await startFeServer(specRoutes());
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetPerformState();
  fe.calls.length = 0;
});
afterEach(() => vi.restoreAllMocks());

describe("perform form", () => {
  it("shows the chosen method's description under the select", async () => {
    signIn();
    renderConsole("/perform");
    const user = userEvent.setup();

    await chooseMethod(user, "update_actor");

    expect(screen.getByRole("combobox", { name: "Method to perform" })).toHaveAccessibleDescription(
      "Updates the actor",
    );
    expect(screen.getByText("Updates the actor")).toBeVisible();
  });

  it("'Insert example' fills data with the server's example, unchanged", async () => {
    const example = { data: { type: "Note", content: "from the server" } };
    const info = sampleInfo();
    info.methodInformation[0] = { ...info.methodInformation[0], example } as never;
    signIn(info);
    renderConsole("/perform");
    const user = userEvent.setup();
    expect(screen.getByRole("button", { name: "Insert example" })).toBeDisabled();
    await chooseMethod(user, "send_message");

    await user.click(screen.getByRole("button", { name: "Insert example" }));

    const text = (screen.getByRole("textbox", { name: "data" }) as HTMLTextAreaElement).value;
    expect(JSON.parse(text)).toEqual(example);
  });

  it("'Insert example' falls back to a skeleton that names the current actor", async () => {
    signIn();
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "send_message");

    await user.click(screen.getByRole("button", { name: "Insert example" }));

    const text = (screen.getByRole("textbox", { name: "data" }) as HTMLTextAreaElement).value;
    const body = JSON.parse(text) as { data: { type: string; actor: string; cc: string[] } };
    expect(body.data).toMatchObject({ type: "Create", actor: alice.id });
    expect(body.data.cc).toEqual([`${alice.id}/followers`]);
    expect(screen.getByRole("button", { name: "Perform" })).toBeEnabled();
  });

  it("disables Perform while data is not a JSON object and shows the parser's reason", async () => {
    signIn();
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "send_message");
    const perform = screen.getByRole("button", { name: "Perform" });
    expect(perform).toBeEnabled();

    setData('{"data": {');
    expect(perform).toBeDisabled();
    const field = screen.getByRole("textbox", { name: "data" });
    expect(field).toHaveAccessibleDescription(/^Not valid JSON: .+/);
    expect(field).toBeInvalid();

    setData("[1, 2]");
    expect(perform).toBeDisabled();
    expect(field).toHaveAccessibleDescription("data must be a JSON object, not an array");

    setData('{"data": {}}');
    expect(perform).toBeEnabled();
    expect(field).not.toHaveAccessibleDescription(/JSON/);
  });

  it("keeps the method and the data, typed or not, across leaving the page and a reload", async () => {
    signIn();
    const first = renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "update_actor");
    setData('{"profile": {"name": "half');
    first.unmount();

    // A reload: memory starts empty, and only what local storage holds comes back.
    const saved = localStorage.getItem(PERFORM_DRAFT_KEY)!;
    expect(JSON.parse(saved).state).toEqual({
      method: "update_actor",
      text: '{"profile": {"name": "half',
    });
    resetPerformDraft();
    localStorage.setItem(PERFORM_DRAFT_KEY, saved);
    await usePerformDraftStore.persist.rehydrate();
    renderConsole("/perform");

    expect(screen.getByRole("combobox", { name: "Method to perform" })).toHaveTextContent(
      "update_actor",
    );
    expect(screen.getByRole("textbox", { name: "data" })).toHaveValue('{"profile": {"name": "half');
    expect(localStorage.getItem("user-storage")).not.toContain("profile");
  });
});
