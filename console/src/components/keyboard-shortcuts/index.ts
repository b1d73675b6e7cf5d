export { KeyboardShortcutsDialog } from "./keyboard-shortcuts-dialog.tsx";
export { SHORTCUTS } from "./shortcuts.ts";
