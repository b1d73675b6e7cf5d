import { useCallback, useDeferredValue, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { FindField } from "./find-field.tsx";
import { countJsonRows, findInJson } from "./find-in-json.ts";
import { flattenJson } from "./flatten-json.ts";
import { JsonTreeRoot } from "./json-tree-root.tsx";
import { buildLookupPath } from "./lookup-url.ts";
import { PlainRows, VirtualRows } from "./tree-rows.tsx";

/** Above this many visible rows the tree scrolls inside itself and renders only what is on screen. */
export const VIRTUALIZE_AFTER_ROWS = 200;
/** A document with more rows than this (fully open) offers "Find in document". */
export const FIND_AFTER_ROWS = 200;
const EMPTY_TOGGLES: ReadonlySet<string> = new Set();

export type JsonTreeProps = {
  data: unknown;
  /** Branches at this depth or deeper start collapsed (top-level keys are depth 0). */
  collapseBelowDepth?: number;
};

type ViewState = { data: unknown; query: string; toggled: ReadonlySet<string>; current: number };

export function JsonTree({ data, collapseBelowDepth }: JsonTreeProps) {
  const [view, setView] = useState<ViewState>(() => freshView(data));
  // A new document starts from the default collapse state, not the previous document's clicks.
  if (view.data !== data) setView(freshView(data));
  const current = view.data === data ? view : freshView(data);
  const offerFind = useMemo(() => countJsonRows(data, FIND_AFTER_ROWS) > FIND_AFTER_ROWS, [data]);
  // Typing stays responsive in a large document: the search follows a beat behind.
  const query = useDeferredValue(offerFind ? current.query : "");
  const matches = useMemo(() => findInJson(data, query), [data, query]);
  const rows = useMemo(
    () => flattenJson(data, current.toggled, { collapseBelowDepth, forcedOpen: matches.opened }),
    [data, current.toggled, collapseBelowDepth, matches],
  );
  const currentId = matches.ids[current.current % Math.max(1, matches.ids.length)];
  const scrollToIndex = useMemo(
    () => (currentId === undefined ? -1 : rows.findIndex((row) => row.id === currentId)),
    [rows, currentId],
  );
  const matchOf = useMemo(() => {
    const matched = new Set(matches.ids);
    return (id: string) => (id === currentId ? "current" : matched.has(id) ? "match" : undefined);
  }, [matches, currentId]);

  const navigate = useNavigate();
  const onToggle = useCallback((id: string) => {
    setView((previous) => {
      const toggled = new Set(previous.toggled);
      if (!toggled.delete(id)) toggled.add(id);
      return { ...previous, toggled };
    });
  }, []);
  const onNavigate = useCallback((url: string) => navigate(buildLookupPath(url)), [navigate]);
  // A new search starts from the default state, with the matches opened.
  const onQuery = (text: string) =>
    setView((previous) => ({ ...previous, query: text, toggled: EMPTY_TOGGLES, current: 0 }));
  const onStep = (step: number) =>
    setView((previous) => ({
      ...previous,
      current: (previous.current + step + matches.ids.length) % Math.max(1, matches.ids.length),
    }));

  const Rows = rows.length > VIRTUALIZE_AFTER_ROWS ? VirtualRows : PlainRows;
  return (
    <JsonTreeRoot>
      {offerFind && (
        <FindField
          query={current.query}
          count={query === "" ? null : matches.ids.length}
          onQuery={onQuery}
          onStep={onStep}
        />
      )}
      <Rows
        rows={rows}
        matchOf={matchOf}
        scrollToIndex={scrollToIndex}
        onToggle={onToggle}
        onNavigate={onNavigate}
      />
    </JsonTreeRoot>
  );
}

function freshView(data: unknown): ViewState {
  return { data, query: "", toggled: EMPTY_TOGGLES, current: 0 };
}
