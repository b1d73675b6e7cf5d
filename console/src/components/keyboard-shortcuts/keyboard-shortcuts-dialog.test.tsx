import { describe, expect, it } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { KeyboardShortcutsDialog, SHORTCUTS } from "./index.ts";

describe("KeyboardShortcutsDialog", () => {
  it("opens on ? and lists every shortcut, but not while typing in a field", async () => {
    const user = userEvent.setup();
    render(
      <>
        <input aria-label="field" />
        <KeyboardShortcutsDialog />
      </>,
    );
    await user.click(screen.getByRole("textbox", { name: "field" }));
    await user.keyboard("?");
    expect(screen.queryByRole("dialog")).toBeNull();
    screen.getByRole("textbox", { name: "field" }).blur();
    await user.keyboard("?");
    const dialog = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    for (const { key } of SHORTCUTS) expect(dialog).toHaveTextContent(key);
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
