import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import type { ProblemLine } from "./fe-error-detail.ts";
import { safeLocalStorage } from "./safe-local-storage.ts";
import type { TriggerRequest } from "./wire-types.ts";

// The last calls made from Perform, newest first, kept across reloads under their own key.

export const PERFORM_HISTORY_KEY = "perform-history";
export const PERFORM_HISTORY_LIMIT = 100;

/** What the answer to a call said, in the words the page shows. */
export type PerformOutcome =
  /** 202 with Corral-Trigger-Id; `summary` is the record's latest line once seen. */
  | { kind: "recorded"; status: number; triggerId: string; summary: string | null }
  /** A 2xx without a trigger id: a real cattle_grid took the call and says no more. */
  | { kind: "handed-over"; status: number }
  /** A non-OK answer: its `detail`, and for a 422 each problem's place (`body.data`) and why. */
  | { kind: "refused"; status: number; detail: string; problems: ProblemLine[] }
  | { kind: "unreachable"; reason: string };

export type PerformCall = {
  /** Unique in the history (a trigger id is not: a refused call has none). */
  key: string;
  method: string;
  body: TriggerRequest;
  /** ISO time the call was sent. */
  at: string;
  outcome: PerformOutcome;
};

type HistoryState = { calls: PerformCall[] };
type HistoryActions = {
  record: (call: PerformCall) => void;
  /** Keeps the latest summary of a recorded call's trigger, shown as its outcome. */
  noteSummary: (triggerId: string, summary: string) => void;
};

export const usePerformHistory = create<HistoryState & HistoryActions>()(
  persist(
    (set) => ({
      calls: [],
      record: (call) =>
        set((state) => ({ calls: [call, ...state.calls].slice(0, PERFORM_HISTORY_LIMIT) })),
      noteSummary: (triggerId, summary) =>
        set((state) => {
          const index = state.calls.findIndex(
            (call) => call.outcome.kind === "recorded" && call.outcome.triggerId === triggerId,
          );
          const call = state.calls[index];
          if (!call || call.outcome.kind !== "recorded" || call.outcome.summary === summary) {
            return state;
          }
          const calls = [...state.calls];
          calls[index] = { ...call, outcome: { ...call.outcome, summary } };
          return { calls };
        }),
    }),
    {
      name: PERFORM_HISTORY_KEY,
      storage: createJSONStorage(safeLocalStorage),
      partialize: ({ calls }) => ({ calls }),
      merge: (persisted, current) => {
        const calls = (persisted as Partial<HistoryState> | undefined)?.calls;
        if (!Array.isArray(calls)) return current;
        // Another build may have left entries this one does not understand: drop those only.
        return { ...current, calls: calls.filter(isPerformCall).slice(0, PERFORM_HISTORY_LIMIT) };
      },
    },
  ),
);

export function findCallByTrigger(calls: readonly PerformCall[], triggerId: string) {
  return calls.find(
    (call) => call.outcome.kind === "recorded" && call.outcome.triggerId === triggerId,
  );
}

/** Empties the history, for tests. */
export function resetPerformHistory(): void {
  usePerformHistory.setState({ calls: [] });
}

function isPerformCall(value: unknown): value is PerformCall {
  if (typeof value !== "object" || value === null) return false;
  const call = value as Partial<PerformCall>;
  const body = call.body as { actor?: unknown } | undefined;
  const kind = (call.outcome as { kind?: unknown } | undefined)?.kind;
  return (
    typeof call.key === "string" &&
    typeof call.method === "string" &&
    typeof call.at === "string" &&
    typeof body?.actor === "string" &&
    ["recorded", "handed-over", "refused", "unreachable"].includes(String(kind))
  );
}
