import { useEffect, useMemo, useReducer, useRef } from "react";
import {
  createQueryAnswers,
  isEmptyQuery,
  queryKey,
  type MessageQuery,
  type QueryAnswers,
} from "../../lib/streams/stream-search.ts";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";

export type QueryResult = { shown: readonly StreamMessage[]; searching: boolean };

/**
 * The messages that pass the search and the type filter. Answers are remembered per message for
 * the current query, so each batch of arrivals costs only itself; a new query over thousands of
 * messages is answered in slices (the previous list stays up meanwhile, marked as searching).
 */
export function useMessageQuery(
  messages: readonly StreamMessage[],
  query: MessageQuery,
): QueryResult {
  const key = queryKey(query);
  const answersRef = useRef<QueryAnswers | null>(null);
  if (answersRef.current?.key !== key) {
    answersRef.current = createQueryAnswers(query, answersRef.current);
  }
  const answers = answersRef.current;
  const [filled, markFilled] = useReducer((n: number) => n + 1, 0);
  const lastShown = useRef<readonly StreamMessage[]>(messages);

  const empty = isEmptyQuery(query);
  const shown = useMemo(
    () => (empty ? messages : answers.filter(messages)),
    // `filled` re-runs the filter once the slices have answered every message: a dependency the
    // body does not read, which exhaustive-deps cannot know.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [empty, messages, answers, filled],
  );

  useEffect(() => {
    if (shown !== null) return;
    const controller = new AbortController();
    void answers.fill(messages, controller.signal).then(() => {
      if (!controller.signal.aborted) markFilled();
    });
    return () => controller.abort();
  }, [shown, answers, messages]);

  if (shown !== null) lastShown.current = shown;
  return { shown: shown ?? lastShown.current, searching: shown === null };
}
