import type { PerformOutcome } from "../../lib/perform-history-store.ts";

/** One line for what a call's answer said; never "accepted" for an answer that refused. */
export function describeOutcome(outcome: PerformOutcome): string {
  switch (outcome.kind) {
    case "recorded":
      return `HTTP ${outcome.status}, ${outcome.summary ?? "recorded"}`;
    case "handed-over":
      return `handed over (HTTP ${outcome.status})`;
    case "refused":
      return `failed (HTTP ${outcome.status}): ${outcome.detail}`;
    case "unreachable":
      return `no answer: ${outcome.reason}`;
  }
}
