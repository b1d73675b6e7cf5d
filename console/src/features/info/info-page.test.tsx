import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { callFe, setFeBaseUrl } from "../../lib/fe-client.ts";
import { resetUserStore, useUserStore } from "../../lib/user-store.ts";
import type { AccountInfo } from "../../lib/wire-types.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { signIn } from "../../test/signed-in.ts";
import { account, alice, bob, sampleInfo, specRoutes } from "../../test/spec-fe.ts";

let fe: FeServer;
const state: { info: AccountInfo } = { info: sampleInfo() };
const routes = specRoutes(state);
const specInfoRoute = routes["GET /account/info"]!;

beforeAll(async () => {
  fe = await startFeServer(routes);
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  state.info = sampleInfo();
  routes["GET /account/info"] = specInfoRoute;
  fe.calls.length = 0;
});
afterEach(() => vi.restoreAllMocks());

function infoCalls() {
  return fe.calls.filter((call) => call.path === "/account/info");
}

describe("info page", () => {
  it("asks to log in when there is no token, without calling the server", () => {
    renderConsole("/");

    expect(screen.getByText("Please login")).toBeInTheDocument();
    expect(fe.calls).toHaveLength(0);
  });

  it("shows Loading... until the info arrives, then the info as a tree", async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    routes["GET /account/info"] = async (call) => {
      await held;
      return specInfoRoute(call);
    };
    signIn();
    renderConsole("/");

    expect(screen.getByText("Loading...")).toBeInTheDocument();
    answer();

    expect(await screen.findByText(/CattleDrive/)).toBeInTheDocument();
    expect(screen.queryByText("Loading...")).not.toBeInTheDocument();
    expect(screen.getByText(/accountName/)).toBeInTheDocument();
  });

  it("fetches the info with the bearer token and replaces actors and methodInformations", async () => {
    useUserStore.setState({ token: account.token, actors: [{ id: "gone", name: "gone" }] });
    renderConsole("/");

    await waitFor(() => expect(useUserStore.getState().actors).toEqual([alice, bob]));
    expect(infoCalls()[0]!.authorization).toBe(`Bearer ${account.token}`);
    expect(useUserStore.getState().methodInformations).toEqual(state.info.methodInformation);
  });

  it("makes the first actor current when none is set, so Lookup and Perform become usable", async () => {
    useUserStore.setState({ token: account.token });
    renderConsole("/");

    await waitFor(() => expect(useUserStore.getState().currentActor).toBe(alice.id));
  });

  it("clears the token and logs 'unauthorized' on a 401", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    useUserStore.setState({ token: "revoked", currentActor: alice.id });
    renderConsole("/");

    expect(await screen.findByText("Please login")).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith("unauthorized");
    expect(useUserStore.getState()).toMatchObject({ token: null, currentActor: null });
  });

  it("offers no create-actor panel when the info lists no base URL", async () => {
    state.info = sampleInfo({ baseUrls: [] });
    signIn(state.info);
    renderConsole("/");

    expect(await screen.findByText(/CattleDrive/)).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Base Url" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Create Actor" })).not.toBeInTheDocument();
    expect(screen.getByText(/This account cannot create actors/)).toHaveTextContent(
      /--permission HOST/,
    );
  });

  it("says where the history comes from in front of a Corral proxy that records it, and when it waits", async () => {
    const historySource =
      "Corral records every event of this account from cattle_grid's RabbitMQ at amqp://127.0.0.1:5672 (vhost cg).";
    const corralProxy = { events: true, historySource, recording: true, retention: 10000 };
    state.info = { ...sampleInfo(), corralProxy } as AccountInfo;
    signIn(state.info);
    const view = renderConsole("/");
    expect(await screen.findByText(`History: ${historySource}`)).toBeInTheDocument();
    view.unmount();

    state.info = {
      ...sampleInfo(),
      corralProxy: { ...corralProxy, recording: false },
    } as AccountInfo;
    renderConsole("/");
    expect(
      await screen.findByText(/Recording waits: the broker connection is down/),
    ).toHaveTextContent(historySource);
  });

  it("says nothing of a history source in front of a server that records none", async () => {
    signIn();
    renderConsole("/");
    expect(await screen.findByText(/CattleDrive/)).toBeInTheDocument();
    expect(screen.queryByText(/^History:/)).not.toBeInTheDocument();
  });

  it("lists the base URLs in the 'Base Url' select", async () => {
    signIn();
    renderConsole("/");
    const user = userEvent.setup();

    await user.click(await screen.findByRole("combobox", { name: "Base Url" }));

    const options = within(screen.getByRole("listbox")).getAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(state.info.baseUrls);
  });

  it("creates an actor with the chosen base URL and trimmed handle, shows it in an 800 px modal and refreshes the info", async () => {
    signIn();
    renderConsole("/");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("combobox", { name: "Base Url" }));
    await user.click(screen.getByRole("option", { name: "http://other.example" }));
    await user.type(screen.getByRole("textbox", { name: "handle" }), "  carol ");
    const infoCallsBefore = infoCalls().length;

    await user.click(screen.getByRole("button", { name: "Create Actor" }));

    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("http://other.example/actor/new")).toBeInTheDocument();
    expect(getComputedStyle(dialog).width).toBe("800px");
    expect(fe.calls.find((call) => call.path === "/account/create")!.body).toEqual({
      baseUrl: "http://other.example",
      handle: "carol",
    });
    await waitFor(() => expect(infoCalls().length).toBe(infoCallsBefore + 1));
    await waitFor(() => expect(useUserStore.getState().actors).toHaveLength(3));
  });

  it("sends handle null when the handle is empty after trimming", async () => {
    signIn();
    renderConsole("/");
    const user = userEvent.setup();
    await user.type(await screen.findByRole("textbox", { name: "handle" }), "   ");

    await user.click(screen.getByRole("button", { name: "Create Actor" }));

    await screen.findByRole("dialog");
    expect(fe.calls.find((call) => call.path === "/account/create")!.body).toEqual({
      baseUrl: "http://127.0.0.1",
      handle: null,
    });
  });

  it("says why when the info call fails with another error", async () => {
    routes["GET /account/info"] = () => ({ status: 500, body: { detail: "database is down" } });
    signIn();
    renderConsole("/");

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load the account info (HTTP 500): database is down");
    expect(useUserStore.getState().token).toBe(account.token);
  });

  it("while the server is away says so, and loads the info by itself once it answers again", async () => {
    const original = routes["GET /account/info"]!;
    routes["GET /account/info"] = () => ({ status: 503, body: { detail: "restarting" } });
    signIn();
    renderConsole("/");

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Could not load the account info: The server is not answering (HTTP 503: restarting). Asking again when it answers.",
    );
    routes["GET /account/info"] = original;
    // Any answer from the server (here another page's call) is the news that it is back.
    await callFe("/account/activity?minutes=60");
    expect(await screen.findByRole("button", { name: "Create Actor" })).toBeInTheDocument();
  });

  it("says why a handle was refused (409, 422) by the handle field, not in a modal", async () => {
    const original = routes["POST /account/create"]!;
    const answers = [
      { status: 409, body: { detail: "Duplicate identifier" } },
      {
        status: 422,
        body: { detail: [{ loc: ["body", "handle"], msg: "letters, digits or _", type: "x" }] },
      },
      { status: 500, body: { detail: "disk full" } },
    ];
    routes["POST /account/create"] = () => answers.shift()!;
    try {
      signIn();
      renderConsole("/");
      const user = userEvent.setup();
      const handle = await screen.findByRole("textbox", { name: "handle" });
      await user.type(handle, "alice");

      await user.click(screen.getByRole("button", { name: "Create Actor" }));
      await waitFor(() => expect(handle).toHaveAccessibleDescription(/"alice" already taken/));
      expect(handle).toHaveAttribute("aria-invalid", "true");
      expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

      await user.type(handle, "!");
      expect(handle).toHaveAttribute("aria-invalid", "false");
      await user.click(screen.getByRole("button", { name: "Create Actor" }));
      await waitFor(() => expect(handle).toHaveAccessibleDescription("letters, digits or _"));
      expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

      // Anything else is not about the handle: the modal says it.
      await user.click(screen.getByRole("button", { name: "Create Actor" }));
      const dialog = await screen.findByRole("dialog", { name: "Actor not created (HTTP 500)" });
      expect(within(dialog).getByText(/disk full/)).toBeInTheDocument();
    } finally {
      routes["POST /account/create"] = original;
    }
  }, 15_000);

  it("shows a progress bar while the info loads and while an actor is being created", async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const original = routes["POST /account/create"]!;
    routes["POST /account/create"] = async (call) => {
      await held;
      return original(call);
    };
    try {
      signIn();
      renderConsole("/");
      expect(screen.getByRole("progressbar", { name: "Loading the account info" })).toBeVisible();
      const user = userEvent.setup();
      await user.click(await screen.findByRole("button", { name: "Create Actor" }));

      expect(await screen.findByRole("progressbar", { name: "Creating actor" })).toBeVisible();
      expect(screen.getByRole("button", { name: "Create Actor" })).toBeDisabled();
      answer();
      await screen.findByRole("dialog");
      await waitFor(() =>
        expect(screen.queryByRole("progressbar", { name: "Creating actor" })).toBeNull(),
      );
    } finally {
      routes["POST /account/create"] = original;
    }
  });

  it("signed out, offers the way to Sign In under Please login", () => {
    renderConsole("/");
    expect(screen.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/signin");
  });
});
