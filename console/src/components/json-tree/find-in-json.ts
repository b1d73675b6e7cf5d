import { hasChildren, walkJson } from "./walk-json.ts";

export type JsonMatches = {
  /** The rows whose key or value contains the text, in display order. */
  ids: string[];
  /** Every row above a match: opened so that each match is on screen. */
  opened: ReadonlySet<string>;
};

export const NO_MATCHES: JsonMatches = { ids: [], opened: new Set() };

/** Finds `query` (case-insensitive) in keys and scalar values across the whole document. */
export function findInJson(data: unknown, query: string): JsonMatches {
  const needle = query.trim().toLowerCase();
  if (needle === "") return NO_MATCHES;
  const ids: string[] = [];
  const opened = new Set<string>();
  // ancestors[d] is the id of the open row at depth d above the node being visited.
  const ancestors: string[] = [];
  walkJson(data, (node) => {
    ancestors.length = node.depth;
    const inLabel = node.group === undefined && node.label?.toLowerCase().includes(needle);
    const inValue = !hasChildren(node) && scalarText(node.value).toLowerCase().includes(needle);
    if (inLabel || inValue) {
      ids.push(node.id);
      // Walking up stops at the first row already opened: its own ancestors were opened with it.
      for (let depth = ancestors.length - 1; depth >= 0 && !opened.has(ancestors[depth]!); depth--)
        opened.add(ancestors[depth]!);
    }
    ancestors.push(node.id);
    return true;
  });
  return { ids, opened };
}

/** Counts the rows of the fully open document, stopping once past `limit`. */
export function countJsonRows(data: unknown, limit = Infinity): number {
  let count = 0;
  walkJson(data, () => ++count <= limit);
  return count;
}

function scalarText(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return ""; // an empty {} or []
  return String(value);
}
