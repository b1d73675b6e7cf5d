import { create } from "zustand";

export type ColorMode = "light" | "dark";

/**
 * Its own key: "user-storage" keeps exactly the shape docs/console-guide.md#what-the-browser-keeps gives
 * it.
 */
export const COLOR_MODE_KEY = "corral-color-mode";

type ColorModeState = {
  /** The operator's choice; null follows the system's prefers-color-scheme. */
  chosen: ColorMode | null;
  choose: (mode: ColorMode | null) => void;
};

function readChosen(): ColorMode | null {
  try {
    const stored = localStorage.getItem(COLOR_MODE_KEY);
    return stored === "light" || stored === "dark" ? stored : null;
  } catch {
    return null; // storage disabled: follow the system
  }
}

export const useColorModeStore = create<ColorModeState>()((set) => ({
  chosen: readChosen(),
  choose: (chosen) => {
    try {
      if (chosen === null) localStorage.removeItem(COLOR_MODE_KEY);
      else localStorage.setItem(COLOR_MODE_KEY, chosen);
    } catch {
      // not remembered, still applied
    }
    set({ chosen });
  },
}));

/** The mode in effect: the operator's choice, else the system's. */
export function effectiveColorMode(chosen: ColorMode | null, systemDark: boolean): ColorMode {
  return chosen ?? (systemDark ? "dark" : "light");
}
