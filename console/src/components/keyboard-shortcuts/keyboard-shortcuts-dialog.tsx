import { lazy, Suspense, useEffect, useState } from "react";
import { LinearProgress } from "@mui/material";

const ShortcutsTableDialog = lazy(() => import("./shortcuts-table-dialog.tsx"));

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    target.closest("input, textarea, select, [contenteditable='true']") !== null
  );
}

/** `?` anywhere (outside a text field) opens the list of keyboard shortcuts. */
export function KeyboardShortcutsDialog() {
  const [open, setOpen] = useState(false);
  // Mounted from the first `?` on, so closing keeps MUI's exit transition.
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      event.preventDefault();
      setWanted(true);
      setOpen(true);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
  if (!wanted) return null;
  return (
    <Suspense
      fallback={
        <LinearProgress
          aria-label="Loading the keyboard shortcuts"
          sx={{ position: "fixed", top: 0, left: 0, right: 0, zIndex: "modal" }}
        />
      }
    >
      <ShortcutsTableDialog open={open} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
