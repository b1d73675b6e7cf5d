import { useMemo, useRef } from "react";
import { usePerformDraftStore } from "../../lib/perform-draft-store.ts";

export type PerformDraft = {
  text: string;
  setText: (text: string) => void;
  /** The last text that parsed as a JSON object, kept while the current text does not. */
  data: Record<string, unknown>;
  typing: boolean;
  /** Why the current text is not a JSON object, in the parser's words; null when it is. */
  problem: string | null;
};

/** The 'data' field of Perform: JSON text (kept across reloads) plus its last valid parse. */
export function usePerformDraft(): PerformDraft {
  const text = usePerformDraftStore((state) => state.text);
  const setText = usePerformDraftStore((state) => state.setText);
  const lastValid = useRef<Record<string, unknown>>({});
  const parsed = useMemo(() => parseObject(text), [text]);
  if (parsed.ok) lastValid.current = parsed.value;
  return {
    text,
    setText,
    data: parsed.ok ? parsed.value : lastValid.current,
    typing: !parsed.ok,
    problem: parsed.ok ? null : parsed.problem,
  };
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string };

// The data is spread into the request beside `actor`, so only a JSON object makes sense.
export function parseObject(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (failure) {
    return { ok: false, problem: `Not valid JSON: ${(failure as Error).message}` };
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return { ok: true, value: value as Record<string, unknown> };
  }
  const kind = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
  return { ok: false, problem: `data must be a JSON object, not ${kind}` };
}
