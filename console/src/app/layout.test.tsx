import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { COLOR_MODE_KEY, useColorModeStore } from "../lib/color-mode.ts";
import { setFeBaseUrl } from "../lib/fe-client.ts";
import { getStreamStore, STREAM_TYPES } from "../lib/streams/stream-store.ts";
import { resetUserStore, useUserStore } from "../lib/user-store.ts";
import { startFeServer, type FeServer } from "../test/fe-server.ts";
import { renderConsole } from "../test/render-console.tsx";
import { signIn } from "../test/signed-in.ts";
import { account, alice, bob, sampleInfo, specRoutes } from "../test/spec-fe.ts";
import { Layout } from "./layout.tsx";
import { SOURCE_CODE_URL } from "./navigation-drawer.tsx";

let fe: FeServer;
const state: Parameters<typeof specRoutes>[0] = { info: sampleInfo() };

beforeAll(async () => {
  fe = await startFeServer(specRoutes(state));
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  useColorModeStore.setState({ chosen: null });
  state.streams = undefined;
  for (const type of STREAM_TYPES) getStreamStore(type).getState().reset();
});
afterEach(() => vi.restoreAllMocks());

function drawer(): HTMLElement {
  return document.querySelector<HTMLElement>(".MuiDrawer-paper")!;
}

describe("layout", () => {
  it("has a permanent left drawer 240 px wide with the title and a source-code link", () => {
    renderConsole("/signin");

    expect(getComputedStyle(drawer()).width).toBe("240px");
    expect(within(drawer()).getByText("Corral")).toBeInTheDocument();
    const source = within(drawer()).getByRole("link", { name: "Source code" });
    expect(source).toHaveAttribute("href", SOURCE_CODE_URL);
  });

  it("shows the console host in a top-bar title that links to /", async () => {
    const { currentPath } = renderConsole("/signin");
    const user = userEvent.setup();

    await user.click(screen.getByRole("link", { name: window.location.host }));

    expect(currentPath()).toBe("/");
  });

  it("signed out: offers Sign In going to /signin and shows only title and link in the drawer", async () => {
    const { currentPath } = renderConsole("/");
    const user = userEvent.setup();

    expect(within(drawer()).getAllByRole("link")).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Open" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(currentPath()).toBe("/signin");
  });

  it("signed in: the drawer offers Info, Lookup, Perform, Incoming, Outgoing and Error", () => {
    signIn();
    renderConsole("/");

    const nav = within(drawer());
    expect(nav.getByRole("link", { name: "Info" })).toHaveAttribute("href", "/");
    expect(nav.getByRole("link", { name: "Lookup" })).toHaveAttribute("href", "/lookup");
    expect(nav.getByRole("link", { name: "Perform" })).toHaveAttribute("href", "/perform");
    expect(nav.getByText("Actor")).toBeInTheDocument();
    expect(nav.getByText("Account")).toBeInTheDocument();
    for (const [label, type] of [
      ["Incoming", "incoming"],
      ["Outgoing", "outgoing"],
      ["Error", "error"],
    ]) {
      const entry = nav.getByRole("link", { name: new RegExp(`^${label}\\b`) });
      expect(entry).toHaveAttribute("href", `/stream/${type}`);
      expect(within(entry).getByText("0")).toHaveClass("MuiBadge-badge");
    }
  });

  it("shows on each stream entry a badge with the number of messages the stream holds", async () => {
    const like = (n: number) => ({
      data: { parsed: { activity: { type: "Like", id: `like-${n}` } } },
    });
    state.streams = {
      incoming: [like(1), like(2), like(3)],
      outgoing: [],
      error: [{ message: ["no such method"], routing_key: "nope", original_message_body: "{}" }],
    };
    signIn();
    renderConsole("/signin");

    const badge = (label: string) =>
      within(drawer())
        .getByRole("link", { name: new RegExp(`^${label}\\b`) })
        .querySelector(".MuiBadge-badge");
    await waitFor(() => expect(badge("Incoming")).toHaveTextContent(/^3$/));
    await waitFor(() => expect(badge("Error")).toHaveTextContent(/^1$/));
    expect(badge("Outgoing")).toHaveTextContent(/^0$/);
  });

  it("disables Lookup and Perform until a current actor is set", async () => {
    signIn(undefined, undefined);
    useUserStore.setState({ currentActor: null });
    const { currentPath } = renderConsole("/signin");

    const lookup = within(drawer()).getByRole("link", { name: "Lookup" });
    expect(lookup).toHaveAttribute("aria-disabled", "true");
    expect(within(drawer()).getByRole("link", { name: "Perform" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    lookup.click();
    expect(currentPath()).toBe("/signin");

    useUserStore.setState({ currentActor: alice.id });
    await waitFor(() => expect(lookup).not.toHaveAttribute("aria-disabled"));
  });

  it("lists every actor in the Open menu with a check on the current one, and switches on click", async () => {
    signIn(undefined, alice.id);
    renderConsole("/signin");
    const user = userEvent.setup();

    await user.click(screen.getByRole("button", { name: "Open" }));

    const menu = screen.getByRole("menu");
    expect(within(menu).getByRole("menuitemradio", { name: "alice" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    expect(within(menu).getByRole("menuitemradio", { name: "bob" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    expect(within(menu).getAllByTestId("CheckIcon")).toHaveLength(1);
    expect(menu.querySelector("hr")).toBeInTheDocument();
    await user.click(within(menu).getByRole("menuitemradio", { name: "bob" }));

    expect(useUserStore.getState().currentActor).toBe(bob.id);
  });

  it("logs out from the Open menu: the token ended on the server, token and current actor cleared, back at /", async () => {
    signIn();
    const { currentPath } = renderConsole("/perform");
    const user = userEvent.setup();

    await user.click(screen.getByRole("button", { name: "Open" }));
    await user.click(screen.getByRole("menuitem", { name: "Logout" }));

    expect(useUserStore.getState()).toMatchObject({ token: null, currentActor: null });
    expect(currentPath()).toBe("/");
    expect(await screen.findByText("Please login")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign In" })).toBeInTheDocument();
    await waitFor(() =>
      expect(fe.calls).toContainEqual(
        expect.objectContaining({
          method: "POST",
          path: "/signout",
          authorization: `Bearer ${account.token}`,
        }),
      ),
    );
  });

  it("shows 'Something went wrong' inside the layout when a screen fails to render", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    function Broken(): never {
      throw new Error("boom");
    }
    renderConsole("/", [{ element: <Layout />, children: [{ path: "/", element: <Broken /> }] }]);

    expect(screen.getByText("Something went wrong")).toBeInTheDocument();
    expect(within(drawer()).getByText("Corral")).toBeInTheDocument();
  });

  it("shows 'Something went wrong' when the layout itself fails to render", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    function BrokenLayout(): never {
      throw new Error("boom");
    }
    renderConsole("/", [{ element: <BrokenLayout />, children: [{ path: "/", element: <p /> }] }]);

    expect(screen.getByText("Something went wrong")).toBeInTheDocument();
  });

  it("toggles dark mode from the top bar and remembers the choice under its own key", async () => {
    signIn();
    renderConsole("/signin");
    const user = userEvent.setup();
    const toggle = screen.getByRole("button", { name: "Toggle dark mode" });
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    const lightBackground = getComputedStyle(document.body).backgroundColor;

    await user.click(toggle);

    expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(getComputedStyle(document.body).backgroundColor).not.toBe(lightBackground);
    expect(localStorage.getItem(COLOR_MODE_KEY)).toBe("dark");
    expect(Object.keys(JSON.parse(localStorage.getItem("user-storage")!).state).sort()).toEqual([
      "actors",
      "currentActor",
      "methodInformations",
      "token",
    ]);
    await user.click(toggle);
    expect(localStorage.getItem(COLOR_MODE_KEY)).toBe("light");
  });
});
