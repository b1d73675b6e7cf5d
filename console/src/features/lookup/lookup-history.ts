import { create } from "zustand";
import { diffJson } from "./diff-json.ts";

/** One lookup, with the document it found (kept for "Compare"). */
export type RecentLookup = { id: string; uri: string; at: number; document?: unknown };

export const LOOKUP_HISTORY_KEY = "corral-lookup-history";
export const LOOKUP_HISTORY_SIZE = 50;

type HistoryState = {
  recent: RecentLookup[];
  /** Puts a lookup first; the same URI with the same document is moved up, not repeated. */
  record: (entry: Omit<RecentLookup, "id">) => void;
};

let counter = 0;

/**
 * The last 50 lookups, newest first, kept in localStorage across reloads. The same URI appears
 * again only when its document changed, so an actor before and after update_actor are two
 * entries that "Compare" can set side by side.
 */
export const useLookupHistory = create<HistoryState>()((set) => ({
  recent: readLookupHistory(),
  record: (entry) =>
    set((state) => {
      const id = `${entry.at.toString(36)}-${(counter++).toString(36)}`;
      const others = state.recent.filter((item) => !sameLookup(item, entry));
      const recent = [{ id, ...entry }, ...others].slice(0, LOOKUP_HISTORY_SIZE);
      saveHistory(recent);
      return { recent };
    }),
}));

function sameLookup(item: RecentLookup, entry: Omit<RecentLookup, "id">): boolean {
  if (item.uri !== entry.uri) return false;
  if ((item.document === undefined) !== (entry.document === undefined)) return false;
  const { lines, more } = diffJson(item.document, entry.document, 1);
  return lines.length === 0 && more === 0;
}

/** What localStorage holds (read once at start; a reload reads it again). */
export function readLookupHistory(): RecentLookup[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(LOOKUP_HISTORY_KEY) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (item): item is RecentLookup =>
        typeof item === "object" &&
        item !== null &&
        typeof item.id === "string" &&
        typeof item.uri === "string" &&
        typeof item.at === "number",
    );
  } catch {
    return []; // another build's or a hand-edited value: start afresh
  }
}

/** A document larger than this is not kept (its URI is). */
const DOCUMENT_LIMIT_CHARS = 200_000;

/**
 * Documents make the history large. Each entry is serialised once; a document that cannot be
 * (nested too deep for JSON.stringify) or is too large is left out, and when storage is full the
 * oldest documents are dropped first, the URIs kept.
 */
function saveHistory(recent: RecentLookup[]): void {
  const bare = recent.map(({ id, uri, at }) => JSON.stringify({ id, uri, at }));
  const full = recent.map((item, index) => {
    try {
      const text = JSON.stringify(item);
      return text.length <= DOCUMENT_LIMIT_CHARS ? text : bare[index]!;
    } catch {
      return bare[index]!;
    }
  });
  for (let keep = recent.length; keep >= 0; keep--) {
    try {
      const parts = recent.map((_, index) => (index < keep ? full[index] : bare[index]));
      localStorage.setItem(LOOKUP_HISTORY_KEY, `[${parts.join(",")}]`);
      return;
    } catch {
      // full: again with one document fewer
    }
  }
  console.warn(`${LOOKUP_HISTORY_KEY} could not be saved`);
}

/** For tests: forget everything. */
export function resetLookupHistory(): void {
  localStorage.removeItem(LOOKUP_HISTORY_KEY);
  useLookupHistory.setState({ recent: [] });
}
