import { vi } from "vitest";

/**
 * A screen `width` px wide, as far as CSS media queries go (jsdom has no layout of its own);
 * undo it with `vi.unstubAllGlobals()`.
 */
export function screenOf(width: number): void {
  vi.stubGlobal("matchMedia", (query: string) => {
    const maxWidth = /max-width:\s*([\d.]+)px/.exec(query);
    const minWidth = /min-width:\s*([\d.]+)px/.exec(query);
    const matches =
      (!maxWidth || width <= Number(maxWidth[1])) && (!minWidth || width >= Number(minWidth[1]));
    return {
      matches,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
    };
  });
}
