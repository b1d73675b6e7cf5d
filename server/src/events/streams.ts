// The three streams every account has (cattle_grid's EventType; fe/wire.ts checks they agree).

export type StreamName = "incoming" | "outgoing" | "error";

export const streamNames = [
  "incoming",
  "outgoing",
  "error",
] as const satisfies readonly StreamName[];
