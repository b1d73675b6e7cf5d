import { useMemo, useRef, useState } from "react";

export type PerformDraft = {
  text: string;
  setText: (text: string) => void;
  /** The last text that parsed as a JSON object, kept while the current text does not. */
  data: Record<string, unknown>;
  typing: boolean;
};

/** The 'data' field of Perform: JSON text plus its last valid parse. */
export function usePerformDraft(initial = "{}"): PerformDraft {
  const [text, setText] = useState(initial);
  const lastValid = useRef<Record<string, unknown>>({});
  const parsed = useMemo(() => parseObject(text), [text]);
  if (parsed !== null) lastValid.current = parsed;
  return { text, setText, data: parsed ?? lastValid.current, typing: parsed === null };
}

// The data is spread into the request beside `actor`, so only a JSON object makes sense.
function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
