export { KeyboardShortcutsDialog, SHORTCUTS } from "./keyboard-shortcuts-dialog.tsx";
