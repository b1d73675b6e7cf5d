import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { useActorHandles } from "../../lib/actor-handles.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { chooseMethod, resetPerformState, setData } from "../../test/perform-ui.ts";
import { signIn } from "../../test/signed-in.ts";
import { account, alice, bob, sampleInfo, specRoutes } from "../../test/spec-fe.ts";

let fe: FeServer;
/** Actors the stand-in server deleted: as cattle_grid, it answers 202 to any body, and deletes
 * only for a body of `{actor}` alone; its info then lists them no more. */
const deleted = new Set<string>();

beforeAll(async () => {
  fe = await startFeServer({
    ...specRoutes(),
    "GET /account/info": () => {
      const info = sampleInfo();
      info.actors = info.actors.filter((actor) => !deleted.has(actor.id));
      return { status: 200, body: info };
    },
    "POST /actor/trigger/delete_actor": (call) => {
      const body = call.body as { actor: string };
      if (Object.keys(body).length === 1) deleted.add(body.actor);
      return { status: 202, body: null };
    },
    "POST /actor/trigger/update_actor": () => ({
      status: 400,
      body: { detail: "actor is not one of the account's" },
    }),
  });
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetPerformState();
  fe.calls.length = 0;
  deleted.clear();
});
afterEach(() => vi.restoreAllMocks());

/** The preview tree's rows, e.g. `actor: "…"`. */
function preview(): string[] {
  const rows = screen.getByTestId("perform-preview").querySelectorAll(".jt-row");
  return [...rows].map((row) => row.textContent ?? "");
}

describe("perform page", () => {
  it("asks before delete_actor, naming the actor; afterwards another actor is acted as", async () => {
    const info = sampleInfo();
    info.methodInformation.push({ routing_key: "delete_actor", module: "corral" });
    signIn(info, bob.id);
    useActorHandles.getState().learn(bob.id, "@bob@127.0.0.1");
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "delete_actor");
    const deletes = () => fe.calls.filter((call) => call.path === "/actor/trigger/delete_actor");

    await user.click(screen.getByRole("button", { name: "Perform" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete @bob@127.0.0.1?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(deletes()).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Perform" }));
    await user.click(await screen.findByRole("button", { name: "Delete actor" }));
    await waitFor(() => expect(deletes()).toHaveLength(1));
    expect(deletes()[0]!.body).toEqual({ actor: bob.id });
    await waitFor(() =>
      expect(screen.getByTestId("current-actor")).toHaveTextContent(`alice (${alice.id})`),
    );
    expect(useUserStore.getState().actors.map((actor) => actor.id)).toEqual([alice.id]);
  }, 15_000);

  it("keeps an actor in the menu while a server that only hands delete_actor over still lists it", async () => {
    const info = sampleInfo();
    info.methodInformation.push({ routing_key: "delete_actor", module: "corral" });
    signIn(info, bob.id);
    useActorHandles.getState().learn(bob.id, "@bob@127.0.0.1");
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "delete_actor");
    // A body the server will not act on (it answers 202 all the same).
    setData('{"left": "over"}');
    await user.click(screen.getByRole("button", { name: "Perform" }));
    await user.click(await screen.findByRole("button", { name: "Delete actor" }));
    await screen.findByText(/The actor stays in the Open menu until the server no longer lists it/);
    // Asked again, the server still lists bob: he stays, and is still the one acted as.
    await waitFor(
      () =>
        expect(
          fe.calls.filter((call) => call.method === "GET" && call.path === "/account/info").length,
        ).toBeGreaterThan(0),
      { timeout: 5_000 },
    );
    expect(useUserStore.getState().actors.map((actor) => actor.id)).toContain(bob.id);
    expect(screen.getByTestId("current-actor")).toHaveTextContent(`bob (${bob.id})`);
  }, 15_000);

  it("shows the current actor", () => {
    signIn(undefined, bob.id);
    renderConsole("/perform");

    expect(screen.getByTestId("current-actor")).toHaveTextContent(`bob (${bob.id})`);
  });

  it("lists the methods by routing key in 'Method to perform'", async () => {
    signIn();
    renderConsole("/perform");
    const user = userEvent.setup();

    await user.click(screen.getByRole("combobox", { name: "Method to perform" }));

    const options = within(screen.getByRole("listbox")).getAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(["send_message", "update_actor"]);
  });

  it("starts with {} as data and previews the payload under 'Resulting output'", () => {
    signIn();
    renderConsole("/perform");

    expect(screen.getByRole("textbox", { name: "data" })).toHaveValue("{}");
    expect(screen.getByRole("heading", { name: "Resulting output" })).toBeInTheDocument();
    expect(preview()).toEqual([`actor: "${alice.id}"`]);
  });

  it("shows '... typing ...' while the data is not valid JSON and keeps the last valid preview", () => {
    signIn();
    renderConsole("/perform");
    setData('{"zulu": "Note"}');
    const valid = [`actor: "${alice.id}"`, 'zulu: "Note"'];
    expect(preview()).toEqual(valid);

    setData('{"zulu": "No');

    expect(screen.getByRole("heading", { name: "... typing ..." })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Resulting output" })).not.toBeInTheDocument();
    expect(preview()).toEqual(valid);
  });

  it("posts the actor plus the data fields to /actor/trigger/{routing_key} and logs the answer", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    signIn();
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "send_message");
    setData('{"data": {"type": "Follow", "object": "https://remote.example/users/dana"}}');

    await user.click(screen.getByRole("button", { name: "Perform" }));

    await waitFor(() => expect(log).toHaveBeenCalledWith("perform send_message", 202, null));
    await screen.findByRole("region", { name: "Result" });
    const trigger = fe.calls.find((call) => call.path === "/actor/trigger/send_message")!;
    expect(trigger.authorization).toBe(`Bearer ${account.token}`);
    expect(trigger.body).toEqual({
      actor: alice.id,
      data: { type: "Follow", object: "https://remote.example/users/dana" },
    });
  });

  it("keeps Perform disabled until a method is chosen", () => {
    signIn();
    renderConsole("/perform");

    expect(screen.getByRole("button", { name: "Perform" })).toBeDisabled();
  });

  it("shows Loading... without a current actor", () => {
    useUserStore.setState({ token: account.token });
    renderConsole("/perform");

    expect(screen.getByText("Loading...")).toBeInTheDocument();
  });

  it("says so when the server refuses the Perform", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    signIn();
    renderConsole("/perform");
    const user = userEvent.setup();
    await chooseMethod(user, "update_actor");

    await user.click(screen.getByRole("button", { name: "Perform" }));

    const result = await screen.findByRole("region", { name: "Result" });
    expect(await within(result).findByRole("alert")).toHaveTextContent(
      "update_actor: failed (HTTP 400): actor is not one of the account's",
    );
    expect(result).not.toHaveTextContent(/accepted/i);
  });
});
