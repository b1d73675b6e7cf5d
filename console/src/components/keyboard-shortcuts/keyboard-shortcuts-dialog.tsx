import { useEffect, useState } from "react";
import {
  Dialog,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableRow,
} from "@mui/material";

export const SHORTCUTS: ReadonlyArray<{ key: string; action: string }> = [
  { key: "/", action: "Focus “Search messages” (stream pages)" },
  { key: "p", action: "Pause or resume the list (stream pages)" },
  { key: "Escape", action: "Clear the search (stream pages)" },
  { key: "?", action: "Show these shortcuts" },
];

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    target.closest("input, textarea, select, [contenteditable='true']") !== null
  );
}

/** `?` anywhere (outside a text field) opens the list of keyboard shortcuts. */
export function KeyboardShortcutsDialog() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
  return (
    <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="keyboard-shortcuts-title">
      <DialogTitle id="keyboard-shortcuts-title">Keyboard shortcuts</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableBody>
            {SHORTCUTS.map(({ key, action }) => (
              <TableRow key={key}>
                <TableCell component="th" scope="row">
                  <kbd>{key}</kbd>
                </TableCell>
                <TableCell>{action}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
    </Dialog>
  );
}
