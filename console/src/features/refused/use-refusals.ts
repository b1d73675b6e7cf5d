import { useEffect, useState } from "react";
import { fetchRefusals, type RefusalEntry } from "../../lib/refusal-client.ts";

export type RefusalFilters = { host: string; reason: string };

export type Refusals = {
  rows: RefusalEntry[];
  more: boolean;
  problem: string | null;
  unsupported: boolean;
  loading: boolean;
};

/**
 * The refusals that match the filters, newest first; `loadMore` adds the page older than the
 * last row. A change of filters starts again from the newest.
 */
export function useRefusals(filters: RefusalFilters): Refusals & { loadMore: () => void } {
  const [loaded, setLoaded] = useState<Refusals>({
    rows: [],
    more: false,
    problem: null,
    unsupported: false,
    loading: true,
  });
  // Set by "Load more": the id of the oldest row shown, or null for the first page.
  const [before, setBefore] = useState<number | null>(null);

  useEffect(() => {
    setBefore(null);
  }, [filters]);

  useEffect(() => {
    const controller = new AbortController();
    setLoaded((state) => ({ ...state, loading: true, ...(before === null ? { rows: [] } : {}) }));
    const query = {
      host: filters.host.trim() || undefined,
      reason: filters.reason || undefined,
      before: before ?? undefined,
    };
    fetchRefusals(query, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setLoaded((state) => {
          if (answer.ok) {
            const rows = before === null ? answer.refusals : [...state.rows, ...answer.refusals];
            return { rows, more: answer.more, problem: null, unsupported: false, loading: false };
          }
          if (answer.unsupported) return { ...state, unsupported: true, loading: false };
          return { ...state, problem: answer.reason, loading: false };
        });
      },
      () => {}, // aborted: a newer query is under way
    );
    return () => controller.abort();
  }, [filters, before]);

  const { rows } = loaded;
  const loadMore = () => setBefore(rows[rows.length - 1]!.id);
  return { ...loaded, loadMore };
}
