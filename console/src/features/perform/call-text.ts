import { formatMoment } from "../../lib/format-moment.ts";
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

/** A stored ISO time as the console writes moments (lib/format-moment.ts). */
export function formatTime(iso: string): string {
  return formatMoment(iso);
}
