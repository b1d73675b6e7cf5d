import { beforeEach, describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { resetUserStore } from "../lib/user-store.ts";
import { renderConsole } from "../test/render-console.tsx";
import { signIn } from "../test/signed-in.ts";

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
});
