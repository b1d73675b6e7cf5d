import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setFeBaseUrl } from "../lib/fe-client.ts";
import { resetUserStore } from "../lib/user-store.ts";
import { startFeServer, type FeServer } from "../test/fe-server.ts";
import { renderConsole } from "../test/render-console.tsx";
import { signIn } from "../test/signed-in.ts";
import { specRoutes } from "../test/spec-fe.ts";

let fe: FeServer;

beforeAll(async () => {
  fe = await startFeServer(specRoutes());
  setFeBaseUrl(fe.url);
});
afterAll(() => fe.close());
beforeEach(() => resetUserStore());

describe("route table", () => {
  it("serves the info page at /", () => {
    renderConsole("/");
    expect(screen.getByText("Please login")).toBeInTheDocument();
  });

  it("serves the sign-in page at /signin", () => {
    renderConsole("/signin");
    expect(screen.getByRole("heading", { name: "Sign In" })).toBeInTheDocument();
  });

  it("serves the lookup page at /lookup", () => {
    signIn();
    renderConsole("/lookup");
    expect(screen.getByRole("textbox", { name: "URI" })).toBeInTheDocument();
  });

  it("serves the perform page at /perform", () => {
    signIn();
    renderConsole("/perform");
    expect(screen.getByRole("combobox", { name: "Method to perform" })).toBeInTheDocument();
  });

  it("answers /stream without a stream type with 'You should not be here'", () => {
    renderConsole("/stream");
    expect(screen.getByText("You should not be here")).toBeInTheDocument();
  });

  it("serves a stream page at /stream/{streamType}", () => {
    signIn();
    renderConsole("/stream/incoming");
    expect(screen.queryByText("You should not be here")).not.toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Select Type of Activity" })).toBeInTheDocument();
  });

  it("answers an address it does not know inside the layout, with a link back to Info", async () => {
    renderConsole("/nowhere-at-all");
    expect(screen.getByText("/nowhere-at-all")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign In" })).toBeInTheDocument(); // the top bar
    expect(screen.getByRole("link", { name: "Go to Info" })).toHaveAttribute("href", "/");
  });

  it.each(["/lookup", "/perform"])(
    "signed out, %s says Please login with a link to Sign In instead of Loading...",
    async (path) => {
      const { currentPath } = renderConsole(path);
      expect(screen.getByText("Please login")).toBeInTheDocument();
      expect(screen.queryByText("Loading...")).not.toBeInTheDocument();

      await userEvent.setup().click(screen.getByRole("link", { name: "Sign In" }));

      expect(currentPath()).toBe("/signin");
    },
  );
});
