import { useEffect, useState } from "react";
import { fetchRefusals, type RefusalEntry } from "../../lib/refusal-client.ts";

export type HostRefusals = {
  rows: RefusalEntry[] | null;
  /** There are older refusals than those read. */
  more: boolean;
  problem: string | null;
};

/** A host's newest refusals, read again on each round; a server without the route shows none. */
export function useHostRefusals(host: string, limit: number, round: number): HostRefusals {
  const [rows, setRows] = useState<RefusalEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchRefusals({ host, limit }, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        if (answer.ok) {
          setRows(answer.refusals);
          setMore(answer.more);
        } else if (!answer.unsupported) {
          setProblem(answer.reason);
        }
      },
      () => {},
    );
    return () => controller.abort();
  }, [host, limit, round]);

  return { rows, more, problem };
}
