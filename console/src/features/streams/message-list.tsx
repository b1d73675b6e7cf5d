import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type RefObject,
} from "react";
import { Button } from "@mui/material";
import { useTheme } from "@mui/material/styles";
import { measureElement, useWindowVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import type { ListRow } from "./list-rows.ts";
import { MarkerLine } from "./marker-line.tsx";
import { MessageCard } from "./message-card.tsx";
import type { KnownHandles } from "./message-summary.ts";
import { STREAM_LABELS } from "./stream-labels.ts";
import { useFollowNewest } from "./use-follow-newest.ts";
import "./stream-page.css";

// A typical activity shows about 20 rows; a close estimate means fewer cards mount, then unmount.
const MESSAGE_ESTIMATE_PX = 460;
// One line (a small button's height plus the card's padding and border).
const COMPACT_ESTIMATE_PX = 28;
const MARKER_ESTIMATE_PX = 40;
const GAP_PX = 16;
const COMPACT_GAP_PX = 2;

type MessageListProps = {
  rows: readonly ListRow[];
  compact: boolean;
  showStream: boolean;
  knownHandles: KnownHandles;
  /** The row to scroll to once and mark (a message a call's record links to). */
  focusKey?: string | null;
  /** A row to bring to the top of the screen ("N new"); `at` tells one request from the next. */
  reveal?: { key: string; at: number } | null;
  /** The rows come newest first: the newest end is the top of the page. */
  newestFirst?: boolean;
  /** Opens at the newest end and follows arrivals (not when a link names a message to show). */
  startAtNewest?: boolean;
};

// An element without layout (jsdom) measures 0 px; keep the estimate rather than collapse it.
function measureWithFallback(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<Window, Element>,
) {
  return measureElement(element, entry, instance) || MESSAGE_ESTIMATE_PX;
}

/**
 * Virtualised against the page scroll: only the rows on screen mount their JSON trees, so 10,000
 * held messages cost about what 10 do. Oldest first by default: new messages land below what is
 * being read, so the page does not jump (or re-mount trees) on every batch; measured in Chromium,
 * newest-first re-mounts the visible trees on each batch, which "Compact" keeps cheap.
 */
export function MessageList({
  rows,
  compact,
  showStream,
  knownHandles,
  focusKey = null,
  reveal = null,
  newestFirst = false,
  startAtNewest = true,
}: MessageListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  // Compact: the keys of the messages whose tree is open (kept here: cards unmount off screen).
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (key: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );
  const scrollMargin = useListOffset(listRef);
  const topBarHeight = useTopBarHeight();
  const { palette } = useTheme();
  const rowAt = (index: number) => rows[index]!;
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (index) =>
      rowAt(index).kind === "marker"
        ? MARKER_ESTIMATE_PX
        : compact
          ? COMPACT_ESTIMATE_PX
          : MESSAGE_ESTIMATE_PX,
    getItemKey: (index) => rowAt(index).key,
    gap: compact ? COMPACT_GAP_PX : GAP_PX,
    // Two beyond the screen: scrolling by one tall message finds the next already mounted.
    overscan: 2,
    scrollMargin,
    // A row scrolled to ("N new", ?event=N) lands below the fixed top bar, not under it.
    scrollPaddingStart: topBarHeight,
    measureElement: measureWithFallback,
    // Measuring newly mounted items re-renders once per batch instead of once per item.
    useFlushSync: false,
  });
  const follow = useFollowNewest({ rows, newestFirst, virtualizer, startAtNewest });
  // Scrolled to once per key: arriving messages must not pull the page back to it.
  const scrolledTo = useRef<string | null>(null);
  const focusIndex = focusKey === null ? -1 : rows.findIndex((row) => row.key === focusKey);
  useEffect(() => {
    if (focusIndex < 0 || scrolledTo.current === focusKey) return;
    scrolledTo.current = focusKey;
    virtualizer.scrollToIndex(focusIndex, { align: "start" });
  }, [focusIndex, focusKey, virtualizer]);
  const revealed = useRef<number | null>(null);
  const revealIndex = reveal === null ? -1 : rows.findIndex((row) => row.key === reveal.key);
  useEffect(() => {
    // Once per request, in the render that lists the resumed messages: a message hidden by the
    // search is not scrolled to later, when it may no longer be what the operator asked for.
    if (reveal === null || revealed.current === reveal.at) return;
    revealed.current = reveal.at;
    if (revealIndex >= 0) virtualizer.scrollToIndex(revealIndex, { align: "start" });
  }, [reveal, revealIndex, virtualizer]);
  return (
    <>
      {!follow.following && (
        <Button
          variant="contained"
          onClick={follow.jumpToNewest}
          sx={{
            position: "fixed",
            bottom: 24,
            left: "50%",
            transform: "translateX(-50%)",
            zIndex: (theme) => theme.zIndex.appBar,
          }}
        >
          {follow.arrivals > 0 ? `Jump to newest (${follow.arrivals})` : "Jump to newest"}
        </Button>
      )}
      <div
        ref={listRef}
        style={
          {
            height: virtualizer.getTotalSize(),
            position: "relative",
            // The view is held still here (use-follow-newest.ts), not by the browser's scroll
            // anchoring, which would move it a second time.
            overflowAnchor: "none",
            "--stream-message-border": palette.divider,
            "--stream-message-focus": palette.primary.main,
            "--stream-message-background": palette.background.paper,
          } as CSSProperties
        }
      >
        {virtualizer.getVirtualItems().map((item) => {
          const row = rowAt(item.index);
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{
                position: "absolute",
                top: 0,
                left: 0,
                width: "100%",
                transform: `translateY(${item.start - scrollMargin}px)`,
              }}
            >
              {row.kind === "marker" ? (
                <MarkerLine
                  marker={row.marker}
                  label={showStream ? STREAM_LABELS[row.stream] : undefined}
                />
              ) : (
                <MessageCard
                  message={row.message}
                  compact={compact}
                  expanded={expanded.has(row.key)}
                  onToggle={toggle}
                  rowKey={row.key}
                  showStream={showStream}
                  knownHandles={knownHandles}
                  focused={row.key === focusKey}
                />
              )}
            </div>
          );
        })}
      </div>
    </>
  );
}

/**
 * The list's distance from the top of the page, which the virtualiser needs to know which rows
 * are on screen. It changes when what sits above the list changes height (the panel stacked
 * above it below 900 px, a storage note) or the window crosses 900 px; any of these resizes the
 * body, so a ResizeObserver there measures again (after layout, so without forcing one).
 */
function useListOffset(listRef: RefObject<HTMLDivElement | null>): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const top = (listRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      setOffset((previous) => (Math.abs(previous - top) < 1 ? previous : top));
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [listRef]);
  return offset;
}

/** The height of the app's fixed top bar (MUI's AppBar position="fixed"), 0 where there is none. */
function useTopBarHeight(): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const bar = document.querySelector("header.MuiAppBar-positionFixed");
    setHeight(bar?.getBoundingClientRect().height ?? 0);
  }, []);
  return height;
}
