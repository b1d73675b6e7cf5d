export const SHORTCUTS: ReadonlyArray<{ key: string; action: string }> = [
  { key: "/", action: "Focus “Search messages” (stream pages)" },
  { key: "p", action: "Pause or resume the list (stream pages)" },
  { key: "Escape", action: "Clear the search (stream pages)" },
  { key: "?", action: "Show these shortcuts" },
];
