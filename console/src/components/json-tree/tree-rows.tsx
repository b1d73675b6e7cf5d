import { useEffect, useRef } from "react";
import {
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Virtualizer,
} from "@tanstack/react-virtual";
import type { JsonRow } from "./flatten-json.ts";
import { JsonRowView } from "./json-row.tsx";

const ROW_ESTIMATE_PX = 21;

export type RowsProps = {
  rows: JsonRow[];
  matchOf: (id: string) => "match" | "current" | undefined;
  /** The row to bring into view (a "Find in document" match), or -1. */
  scrollToIndex: number;
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

/** Rows in a scroll box of at most 70vh, only those on screen mounted. */
export function VirtualRows({ rows, matchOf, scrollToIndex, onToggle, onNavigate }: RowsProps) {
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
  useEffect(() => {
    if (scrollToIndex >= 0) virtualizer.scrollToIndex(scrollToIndex, { align: "center" });
  }, [scrollToIndex, virtualizer]);
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
            <JsonRowView
              row={rows[item.index]!}
              match={matchOf(rows[item.index]!.id)}
              onToggle={onToggle}
              onNavigate={onNavigate}
            />
          </div>
        ))}
      </div>
    </div>
  );
}

/** Up to a few hundred rows, all mounted, so small trees size to their content. */
export function PlainRows({ rows, matchOf, scrollToIndex, onToggle, onNavigate }: RowsProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (scrollToIndex < 0) return;
    const row = boxRef.current?.children[scrollToIndex];
    // jsdom has no scrollIntoView; a browser always does.
    row?.scrollIntoView?.({ block: "center" });
  }, [scrollToIndex]);
  return (
    <div ref={boxRef}>
      {rows.map((row) => (
        <JsonRowView
          key={row.id}
          row={row}
          match={matchOf(row.id)}
          onToggle={onToggle}
          onNavigate={onNavigate}
        />
      ))}
    </div>
  );
}
