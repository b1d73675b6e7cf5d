import { useEffect, useRef } from "react";

type Shortcuts = { focusSearch: () => void; togglePause: () => void; clearSearch: () => void };

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    target.closest("input, textarea, select, [contenteditable='true']") !== null
  );
}

function inOverlay(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    target.closest('[role="dialog"], [role="menu"], [role="listbox"]') !== null
  );
}

/**
 * The stream page's keys: `/` focuses "Search messages", `p` toggles "Pause", Escape clears the
 * search. Letters typed into a field are left alone; `?` belongs to the layout's dialog.
 */
export function useStreamShortcuts(shortcuts: Shortcuts): void {
  // The latest handlers, without re-subscribing on every render.
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (inOverlay(event.target)) return;
      if (event.key === "Escape") {
        latest.current.clearSearch();
        return;
      }
      if (isTyping(event.target)) return;
      if (event.key === "/") {
        event.preventDefault();
        latest.current.focusSearch();
      } else if (event.key === "p") {
        event.preventDefault();
        latest.current.togglePause();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
