// A stream page opens at its newest end and follows arrivals while the view stays there; once the
// operator scrolls away the view holds still and "Jump to newest" counts what arrived since.
// The list is virtualised against the page's own scroll (the window), so "the end" is the page's.
// Oldest first, a newest message taller than the room below the top bar is shown from its top
// (its summary line, just below the bar), not from the page's end, which shows only its last rows.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { Virtualizer } from "@tanstack/react-virtual";
import { countArrivalsAfter, newestMessageKey, type ListRow } from "./list-rows.ts";

/** Within this distance of the newest end the view counts as there (one wheel step is ~100 px). */
const AT_END_PX = 48;

type List = {
  rows: readonly ListRow[];
  newestFirst: boolean;
  virtualizer: Virtualizer<Window, Element>;
};

function pageBottomGap(): number {
  const page = document.documentElement;
  return page.scrollHeight - (window.scrollY + window.innerHeight);
}

/**
 * Oldest first, the scroll offset that puts the newest message's top just below the top bar
 * (the virtualiser's "start" offset, the bar being its scroll padding), when at the page's end that
 * top would be above the view or behind the bar; null when the page's end shows it.
 */
function tallNewestTop({ rows, newestFirst, virtualizer }: List): number | null {
  if (newestFirst) return null;
  const index = rows.findLastIndex((row) => row.kind === "message");
  const top = index < 0 ? undefined : virtualizer.getOffsetForIndex(index, "start")?.[0];
  const pageEnd = document.documentElement.scrollHeight - window.innerHeight;
  return top !== undefined && top < pageEnd ? top : null;
}

/** Reading down through a tall newest message still counts as being at the newest end. */
function isAtNewestEnd(list: List): boolean {
  if (list.newestFirst) return window.scrollY <= AT_END_PX;
  const top = tallNewestTop(list);
  return (top !== null && window.scrollY >= top - AT_END_PX) || pageBottomGap() <= AT_END_PX;
}

function scrollToNewestEnd(list: List): void {
  const top = list.newestFirst ? 0 : tallNewestTop(list);
  window.scrollTo(0, top ?? document.documentElement.scrollHeight);
}

export type FollowNewest = {
  following: boolean;
  /** Messages that arrived since the view left the newest end. */
  arrivals: number;
  jumpToNewest: () => void;
};

export function useFollowNewest({
  rows,
  newestFirst,
  virtualizer,
  startAtNewest,
}: {
  rows: readonly ListRow[];
  newestFirst: boolean;
  virtualizer: Virtualizer<Window, Element>;
  /** False when the page opens on a linked message (?event=N): that one is scrolled to instead. */
  startAtNewest: boolean;
}): FollowNewest {
  const [following, setFollowing] = useState(startAtNewest);
  const followingRef = useRef(startAtNewest);
  // The newest message listed when the view left the newest end: arrivals are counted after it.
  const [leftAt, setLeftAt] = useState<string | null>(null);
  const listRef = useRef<List>({ rows, newestFirst, virtualizer });
  listRef.current = { rows, newestFirst, virtualizer };

  const follow = useCallback((on: boolean) => {
    if (followingRef.current === on) return;
    followingRef.current = on;
    setFollowing(on);
    const list = listRef.current;
    setLeftAt(on ? null : newestMessageKey(list.rows, list.newestFirst));
  }, []);

  // A reload must not restore an old scroll position over the newest end.
  useEffect(() => {
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  }, []);

  // The operator's scrolling decides: at the newest end the view follows, elsewhere it holds.
  // Measuring a row above the view moves the page and the end alike, so it does not count.
  useEffect(() => {
    const onScroll = () => follow(isAtNewestEnd(listRef.current));
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [follow]);

  // Switching the order keeps following the newest end (now at the other end of the page).
  const previousOrder = useRef(newestFirst);
  useLayoutEffect(() => {
    if (previousOrder.current === newestFirst) return;
    previousOrder.current = newestFirst;
    if (followingRef.current) scrollToNewestEnd(listRef.current);
  }, [newestFirst]);

  // Held still: with the newest on top, rows added above the view push it down by their height;
  // scrolled back by as much, the row the operator reads stays where it was.
  const anchor = useRef<{ key: ListRow["key"]; start: number } | null>(null);
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const held = anchor.current;
    if (followingRef.current || !newestFirst || held === null) return;
    const index = rows.findIndex((row) => row.key === held.key);
    const start = index < 0 ? undefined : virtualizer.measurementsCache[index]?.start;
    if (start !== undefined && start !== held.start) {
      window.scrollBy(0, start - held.start);
      // Told at once: it measures the new rows before the scroll event would tell it, and
      // would correct their size against the old offset, undoing this.
      virtualizer.scrollOffset = window.scrollY;
    }
  }, [rows, newestFirst, virtualizer]);
  // Following: each arrival, and each row measured taller or shorter than estimated, brings the
  // newest end back into view.
  useLayoutEffect(() => {
    if (followingRef.current) scrollToNewestEnd({ rows, newestFirst, virtualizer });
  }, [rows, totalSize, newestFirst, virtualizer]);
  // The row at the top of the view, for the next change of rows.
  useLayoutEffect(() => {
    const top = window.scrollY;
    const item = virtualizer.getVirtualItems().find((candidate) => candidate.end > top);
    anchor.current = item ? { key: String(item.key), start: item.start } : null;
  });

  const arrivals = useMemo(
    () => (following ? 0 : countArrivalsAfter(rows, leftAt, newestFirst)),
    [following, rows, leftAt, newestFirst],
  );
  const jumpToNewest = useCallback(() => {
    follow(true);
    scrollToNewestEnd(listRef.current);
  }, [follow]);
  return { following, arrivals, jumpToNewest };
}
