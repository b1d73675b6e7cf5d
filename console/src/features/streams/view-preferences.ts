// "Compact" and "Newest first" are remembered across reloads, for every stream page alike.
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";

export const VIEW_PREFERENCES_KEY = "corral-stream-view";

type ViewPreferences = {
  compact: boolean;
  newestFirst: boolean;
  setCompact: (compact: boolean) => void;
  setNewestFirst: (newestFirst: boolean) => void;
};

export const useViewPreferences = create<ViewPreferences>()(
  persist(
    (set) => ({
      compact: false,
      newestFirst: false,
      setCompact: (compact) => set({ compact }),
      setNewestFirst: (newestFirst) => set({ newestFirst }),
    }),
    {
      name: VIEW_PREFERENCES_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ compact, newestFirst }) => ({ compact, newestFirst }),
    },
  ),
);
