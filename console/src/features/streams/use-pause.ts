import { useCallback, useRef, useState } from "react";
import type { StreamMessage } from "../../lib/stream-store.ts";
import { marksAt, splitAtPause, type PauseMarks, type PauseSplit } from "./pause.ts";

/** Pause state over the live messages: what to list, and how many wait behind "N new". */
export function usePause(live: readonly StreamMessage[]) {
  const [marks, setMarks] = useState<PauseMarks | null>(null);
  const previous = useRef<PauseSplit | undefined>(undefined);
  const liveRef = useRef(live);
  liveRef.current = live;
  let listed = live;
  let newCount = 0;
  if (marks) {
    const split = splitAtPause(live, marks, previous.current);
    previous.current = split;
    listed = split.frozen;
    newCount = split.newCount;
  } else previous.current = undefined;
  const toggle = useCallback(
    () => setMarks((current) => (current ? null : marksAt(liveRef.current))),
    [],
  );
  return { paused: marks !== null, listed, newCount, toggle };
}
