import { useCallback, useEffect, useState } from "react";
import { usePerformHistory } from "../../lib/perform-history-store.ts";
import { fetchTriggerRecord } from "../../lib/trigger-client.ts";
import {
  isTriggerSettled,
  summarizeTrigger,
  type TriggerRecord,
} from "../../lib/trigger-record.ts";

let pollMs = 1000;

/** How often a call under way is asked about; tests shorten it. */
export function setTriggerPollMs(ms: number): void {
  pollMs = ms;
}

export type TriggerRecordState = {
  record: TriggerRecord | null;
  /** Why the record could not be read (the latest attempt), or null. */
  problem: string | null;
  /** True while the call is still under way and being asked about. */
  watching: boolean;
  /** Asks again at once and watches until settled (after a redelivery). */
  refresh: () => void;
};

/**
 * The record of one trigger, asked for until it has settled: the trigger ran and none of its
 * deliveries is queued or retrying. A retry can be hours away, so the asking slows down after a
 * minute. Each record seen becomes that call's outcome in the history.
 */
export function useTriggerRecord(id: string): TriggerRecordState {
  const [seen, setSeen] = useState<{ id: string; record: TriggerRecord } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [watching, setWatching] = useState(true);
  const [round, setRound] = useState(0);
  const noteSummary = usePerformHistory((state) => state.noteSummary);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;
    setWatching(true);
    setProblem(null);
    const ask = async () => {
      const answer = await fetchTriggerRecord(id, controller.signal).catch(() => null);
      if (controller.signal.aborted || answer === null) return;
      asked += 1;
      if (answer.ok) {
        setSeen({ id, record: answer.record });
        setProblem(null);
        noteSummary(id, summarizeTrigger(answer.record));
        if (isTriggerSettled(answer.record)) return setWatching(false);
      } else {
        setProblem(answer.reason);
        if (!answer.retry) return setWatching(false);
      }
      timer = setTimeout(ask, asked < 60 ? pollMs : pollMs * 10);
    };
    void ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id, round, noteSummary]);

  const refresh = useCallback(() => setRound((n) => n + 1), []);
  const record = seen?.id === id ? seen.record : null;
  return { record, problem, watching, refresh };
}
