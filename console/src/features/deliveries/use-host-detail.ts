import { useCallback, useEffect, useState } from "react";
import type { HostDetail } from "../../lib/wire-types.ts";
import { fetchHostDetail } from "./host-client.ts";

export type HostDetailState = {
  detail: HostDetail | null;
  /** Why the last read failed, in words; the last detail read stays shown. */
  problem: string | null;
  loading: boolean;
  /** Counts the reads asked for; panels that read more of the host follow it. */
  round: number;
  /** Reads the host again (after an action on it). */
  refresh: () => void;
};

/** One host's record, read when the host changes and again on each refresh. */
export function useHostDetail(host: string): HostDetailState {
  const [detail, setDetail] = useState<HostDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const refresh = useCallback(() => setRound((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    fetchHostDetail(host, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        if (answer.ok) {
          setDetail(answer.detail);
          setProblem(null);
        } else {
          setProblem(answer.reason);
        }
      },
      () => {},
    );
    return () => controller.abort();
  }, [host, round]);

  return { detail, problem, loading, round, refresh };
}
