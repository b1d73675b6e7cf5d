import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { safeLocalStorage } from "./safe-local-storage.ts";

// The Perform form (method and data text, typed or not) kept across navigation and reloads.
// Its own key: "user-storage" keeps exactly the four fields of
// docs/console-guide.md#what-the-browser-keeps.

export const PERFORM_DRAFT_KEY = "perform-draft";

export type PerformDraftState = {
  /** The chosen routing key, "" for none. */
  method: string;
  /** The data field exactly as typed, valid JSON or not. */
  text: string;
};

type PerformDraftActions = {
  setMethod: (method: string) => void;
  setText: (text: string) => void;
};

const empty: PerformDraftState = { method: "", text: "{}" };

export const usePerformDraftStore = create<PerformDraftState & PerformDraftActions>()(
  persist(
    (set) => ({
      ...empty,
      setMethod: (method) => set({ method }),
      setText: (text) => set({ text }),
    }),
    {
      name: PERFORM_DRAFT_KEY,
      storage: createJSONStorage(safeLocalStorage),
      partialize: ({ method, text }) => ({ method, text }),
      merge: (persisted, current) => {
        const { method, text } = (persisted ?? {}) as Partial<PerformDraftState>;
        if (typeof method !== "string" || typeof text !== "string") return current;
        return { ...current, method, text };
      },
    },
  ),
);

/** Back to an empty form, for tests. */
export function resetPerformDraft(): void {
  usePerformDraftStore.setState(empty);
}
