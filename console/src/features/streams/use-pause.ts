import { useCallback, useMemo, useRef, useState } from "react";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import {
  countNew,
  firstNew,
  holdAt,
  isNewSince,
  isRetainedNewSince,
  type PauseHold,
} from "./pause.ts";

/**
 * Pause state over the live messages and a search's answer from the server (`retained`, null
 * without one): what to list, and how many wait behind "N new". Paused, the server's matches that
 * arrived after the pause wait behind "N new" too, counted once with the live ones.
 */
export function usePause(
  live: readonly StreamMessage[],
  retained: readonly StreamMessage[] | null = null,
) {
  const [hold, setHold] = useState<PauseHold | null>(null);
  const liveRef = useRef(live);
  liveRef.current = live;
  const retainedListed = useMemo(
    () => (hold && retained ? retained.filter((m) => !isRetainedNewSince(m, hold)) : retained),
    [hold, retained],
  );
  const newCount = useMemo(() => {
    if (!hold) return 0;
    let count = countNew(live, hold.marks);
    if (!retained) return count;
    const liveNew = new Set<string>();
    for (const message of live)
      if (isNewSince(message, hold.marks)) liveNew.add(`${message.stream}:${message.id}`);
    for (const message of retained)
      if (isRetainedNewSince(message, hold) && !liveNew.has(`${message.stream}:${message.id}`))
        count++;
    return count;
  }, [hold, live, retained]);
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
    /** The server's matches to list: paused, those from before the pause. */
    retainedListed,
    newCount,
    toggle,
    resumeToNew,
    forgetFrozen,
  };
}
