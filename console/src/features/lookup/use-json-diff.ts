import { useEffect, useMemo, useState } from "react";
import { countValues, diffJson, type JsonDiff } from "./diff-json.ts";

/** Documents with more values than this are compared in a Web Worker. */
export const WORKER_AFTER_VALUES = 5_000;

export type JsonDiffState = { diff: JsonDiff | null; pending: boolean };

/**
 * The difference of two documents: at once for small ones, from a Web Worker for large ones so
 * the page keeps answering while it is computed. Without Worker support (or when the documents
 * cannot be posted to one) it is computed here, iteratively, which still cannot overflow.
 */
export function useJsonDiff(before: unknown, after: unknown): JsonDiffState {
  const [state, setState] = useState<{ key: [unknown, unknown]; diff: JsonDiff } | null>(null);
  const large =
    countValues(before, WORKER_AFTER_VALUES) + countValues(after, WORKER_AFTER_VALUES) >
    WORKER_AFTER_VALUES;
  const useWorker = large && typeof Worker !== "undefined";
  const inline = useMemo(
    () => (useWorker ? null : diffJson(before, after)),
    [before, after, useWorker],
  );

  useEffect(() => {
    if (!useWorker) return;
    const key: [unknown, unknown] = [before, after];
    const worker = new Worker(new URL("./diff-worker.ts", import.meta.url), { type: "module" });
    const fallBack = () => setState({ key, diff: diffJson(before, after) });
    worker.onmessage = (event: MessageEvent<JsonDiff>) => setState({ key, diff: event.data });
    worker.onerror = fallBack;
    try {
      worker.postMessage({ before, after });
    } catch {
      fallBack(); // structured clone refused the documents (too deep)
    }
    return () => worker.terminate();
  }, [before, after, useWorker]);

  if (inline) return { diff: inline, pending: false };
  const current = state && state.key[0] === before && state.key[1] === after ? state.diff : null;
  return { diff: current, pending: current === null };
}
