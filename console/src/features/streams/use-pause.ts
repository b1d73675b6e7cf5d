import { useCallback, useMemo, useRef, useState } from "react";
import type { StreamMessage } from "../../lib/stream-store.ts";
import { countNew, firstNew, holdAt, type PauseHold } from "./pause.ts";

/** Pause state over the live messages: what to list, and how many wait behind "N new". */
export function usePause(live: readonly StreamMessage[]) {
  const [hold, setHold] = useState<PauseHold | null>(null);
  const liveRef = useRef(live);
  liveRef.current = live;
  const newCount = useMemo(() => (hold ? countNew(live, hold.marks) : 0), [hold, live]);
  const toggle = useCallback(
    () => setHold((current) => (current ? null : holdAt(liveRef.current))),
    [],
  );
  /** Resumes and answers the first message that arrived while paused (to bring into view). */
  const resumeToNew = useCallback((): StreamMessage | undefined => {
    const first = hold ? firstNew(liveRef.current, hold.marks) : undefined;
    setHold(null);
    return first;
  }, [hold]);
  /** After a reset the frozen messages are gone too; what arrives next still counts as new. */
  const forgetFrozen = useCallback(
    () => setHold((current) => (current ? { ...current, frozen: [] } : null)),
    [],
  );
  return {
    paused: hold !== null,
    listed: hold ? hold.frozen : live,
    newCount,
    toggle,
    resumeToNew,
    forgetFrozen,
  };
}
