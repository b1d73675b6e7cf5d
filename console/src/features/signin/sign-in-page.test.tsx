import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../../lib/fe-client.ts";
import { resetUserStore, useUserStore } from "../../lib/user-store.ts";
import { startFeServer, type FeServer } from "../../test/fe-server.ts";
import { renderConsole } from "../../test/render-console.tsx";
import { account, specRoutes } from "../../test/spec-fe.ts";

let fe: FeServer;
const routes = specRoutes();

beforeAll(async () => {
  fe = await startFeServer(routes);
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => {
  resetUserStore();
  fe.calls.length = 0;
});
afterEach(() => vi.restoreAllMocks());

/** The card's form (the top bar shows a Sign In button of its own while signed out). */
function signInForm() {
  return within(screen.getByRole("form", { name: "Sign In" }));
}

async function submit(name: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByRole("textbox", { name: "Name" }), name);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(signInForm().getByRole("button", { name: "Sign In" }));
}

describe("sign-in page", () => {
  it("shows a card titled Sign In, at most 400 px wide, with Name, masked Password and Sign In", () => {
    renderConsole("/signin");

    expect(screen.getByRole("heading", { name: "Sign In" })).toBeInTheDocument();
    expect(getComputedStyle(screen.getByTestId("sign-in-card")).maxWidth).toBe("400px");
    expect(screen.getByRole("textbox", { name: "Name" })).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "password");
    expect(signInForm().getByRole("button", { name: "Sign In" })).toHaveAttribute("type", "submit");
  });

  it("sends name and password without authentication, keeps the token and goes to /", async () => {
    useUserStore.setState({ token: "stale-token" });
    const { currentPath } = renderConsole("/signin");

    await submit(account.name, account.password);

    await waitFor(() => expect(currentPath()).toBe("/"));
    expect(useUserStore.getState().token).toBe(account.token);
    const signin = fe.calls.find((call) => call.path === "/signin")!;
    expect(signin.body).toEqual({ name: account.name, password: account.password });
    expect(signin.authorization).toBeUndefined();
  });

  it("logs 'token is undefined', stays on the page and shows the server's reason for a wrong password", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const { currentPath } = renderConsole("/signin");

    await submit(account.name, "wrong");

    await waitFor(() => expect(log).toHaveBeenCalledWith("token is undefined"));
    expect(log).toHaveBeenCalledTimes(1);
    expect(currentPath()).toBe("/signin");
    expect(useUserStore.getState().token).toBeNull();
    expect(await signInForm().findByRole("alert")).toHaveTextContent("Wrong name or password");
  });

  it("shows a 429's reason and when to try again", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const original = routes["POST /signin"]!;
    routes["POST /signin"] = () => ({
      status: 429,
      body: { detail: "Too many failed sign-ins; try again in 900 s" },
      headers: { "Retry-After": "900" },
    });
    try {
      renderConsole("/signin");

      await submit(account.name, account.password);

      const alert = await signInForm().findByRole("alert");
      expect(alert).toHaveTextContent(
        /^Too many failed sign-ins; try again in 900 s \(after \d{1,2}:\d{2}:\d{2}/,
      );
    } finally {
      routes["POST /signin"] = original;
    }
  });

  it("shows that it waits while the sign-in is under way", async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const original = routes["POST /signin"]!;
    routes["POST /signin"] = async (call) => {
      await held;
      return original(call);
    };
    try {
      const { currentPath } = renderConsole("/signin");

      await submit(account.name, account.password);

      expect(await screen.findByRole("progressbar", { name: "Signing in" })).toBeInTheDocument();
      expect(signInForm().getByRole("button", { name: "Sign In" })).toBeDisabled();
      answer();
      await waitFor(() => expect(currentPath()).toBe("/"));
    } finally {
      routes["POST /signin"] = original;
    }
  });

  it("logs 'token is undefined' for a 200 answer that carries no token", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const original = routes["POST /signin"]!;
    routes["POST /signin"] = () => ({ status: 200, body: {} });
    try {
      const { currentPath } = renderConsole("/signin");

      await submit(account.name, account.password);

      await waitFor(() => expect(log).toHaveBeenCalledWith("token is undefined"));
      expect(currentPath()).toBe("/signin");
      expect(useUserStore.getState().token).toBeNull();
      expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    } finally {
      routes["POST /signin"] = original;
    }
  });
});
