// Shared steps of the Perform page tests.
import { fireEvent, screen } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { resetPerformDraft } from "../lib/perform-draft-store.ts";
import { resetPerformHistory } from "../lib/perform-history-store.ts";
import { resetUserStore } from "../lib/user-store.ts";

/** A fresh start: signed out, empty form, empty history (the stores outlive one test). */
export function resetPerformState(): void {
  resetUserStore();
  resetPerformDraft();
  resetPerformHistory();
}

export async function chooseMethod(user: UserEvent, method: string): Promise<void> {
  await user.click(screen.getByRole("combobox", { name: "Method to perform" }));
  await user.click(screen.getByRole("option", { name: method }));
}

export function setData(text: string): void {
  // fireEvent, not user.type: braces are key descriptors for user-event.
  fireEvent.change(screen.getByRole("textbox", { name: "data" }), { target: { value: text } });
}
