import { useCallback, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import {
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Virtualizer,
} from "@tanstack/react-virtual";
import { flattenJson, type JsonRow } from "./flatten-json.ts";
import { JsonRowView } from "./json-row.tsx";
import { JsonTreeRoot } from "./json-tree-root.tsx";
import { buildLookupPath } from "./lookup-url.ts";

/** Above this many visible rows the tree scrolls inside itself and renders only what is on screen. */
export const VIRTUALIZE_AFTER_ROWS = 200;
const ROW_ESTIMATE_PX = 21;
const EMPTY_TOGGLES: ReadonlySet<string> = new Set();

type JsonTreeProps = {
  data: unknown;
  /** Branches at this depth or deeper start collapsed; a click still expands them. */
  collapseBelowDepth?: number;
};

export function JsonTree({ data, collapseBelowDepth }: JsonTreeProps) {
  const [toggles, setToggles] = useState({ data, toggled: EMPTY_TOGGLES });
  // A new document starts from the default collapse state, not the previous document's clicks.
  if (toggles.data !== data) setToggles({ data, toggled: EMPTY_TOGGLES });
  const toggled = toggles.data === data ? toggles.toggled : EMPTY_TOGGLES;
  const rows = useMemo(
    () => flattenJson(data, toggled, collapseBelowDepth),
    [data, toggled, collapseBelowDepth],
  );
  const navigate = useNavigate();
  const onToggle = useCallback((id: string) => {
    setToggles((previous) => {
      const next = new Set(previous.toggled);
      if (!next.delete(id)) next.add(id);
      return { data: previous.data, toggled: next };
    });
  }, []);
  const onNavigate = useCallback((url: string) => navigate(buildLookupPath(url)), [navigate]);
  return (
    <JsonTreeRoot>
      {rows.length > VIRTUALIZE_AFTER_ROWS ? (
        <VirtualRows rows={rows} onToggle={onToggle} onNavigate={onNavigate} />
      ) : (
        rows.map((row) => (
          <JsonRowView key={row.id} row={row} onToggle={onToggle} onNavigate={onNavigate} />
        ))
      )}
    </JsonTreeRoot>
  );
}

type VirtualRowsProps = {
  rows: JsonRow[];
  onToggle: (id: string) => void;
  onNavigate: (url: string) => void;
};

// A scroll box that has no layout yet (jsdom, a hidden tab) reports 0×0; render a screenful anyway.
const FALLBACK_RECT = { width: 800, height: 600 };
function observeRectWithFallback(
  instance: Virtualizer<HTMLDivElement, Element>,
  callback: (rect: { width: number; height: number }) => void,
) {
  return observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : FALLBACK_RECT));
}

// Likewise an element without layout measures 0 px; keep the estimate rather than collapse it.
function measureRowWithFallback(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLDivElement, Element>,
) {
  return measureElement(element, entry, instance) || ROW_ESTIMATE_PX;
}

function VirtualRows({ rows, onToggle, onNavigate }: VirtualRowsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    getItemKey: (index) => rows[index]!.id,
    overscan: 12,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRectWithFallback,
    measureElement: measureRowWithFallback,
    // Measuring newly mounted items re-renders once per batch instead of once per item.
    useFlushSync: false,
  });
  const totalSize = virtualizer.getTotalSize();
  return (
    <div
      ref={scrollRef}
      className="jt-scroll"
      style={{ height: `min(${totalSize}px, 70vh)`, overflow: "auto", contain: "strict" }}
    >
      <div style={{ height: totalSize, position: "relative", width: "100%" }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            style={{
              position: "absolute",
              top: 0,
              left: 0,
              width: "100%",
              transform: `translateY(${item.start}px)`,
            }}
          >
            <JsonRowView row={rows[item.index]!} onToggle={onToggle} onNavigate={onNavigate} />
          </div>
        ))}
      </div>
    </div>
  );
}
