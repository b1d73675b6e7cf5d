import { ARRAY_GROUP_SIZE, hasChildren, isContainer, sizeOf, walkJson } from "./walk-json.ts";

/**
 * Turns a JSON value into the flat list of rows currently visible, so the tree can render (and
 * virtualise) a plain list instead of a deep component tree. Cost is proportional to the rows
 * shown, not to the size of collapsed branches, and no depth overflows the stack (walk-json.ts).
 */
export const COLLAPSED_KEYS: ReadonlySet<string> = new Set([
  "@context",
  "context",
  "signature",
  "publicKey",
  "proof",
]);
export { ARRAY_GROUP_SIZE };

export type JsonRow =
  | { kind: "leaf"; id: string; depth: number; label: string | null; value: unknown }
  | {
      kind: "branch";
      id: string;
      depth: number;
      label: string | null;
      open: boolean;
      isArray: boolean;
      size: number;
    }
  | { kind: "group"; id: string; depth: number; label: string; open: boolean; size: number };

export type FlattenOptions = {
  /** Branches at this depth or deeper start collapsed (top-level rows have depth 0). */
  collapseBelowDepth?: number;
  /** Rows opened by "Find in document": open by default; a toggle still closes them. */
  forcedOpen?: ReadonlySet<string>;
};

/** `toggled` holds the rows the user flipped from their default state. */
export function flattenJson(
  data: unknown,
  toggled: ReadonlySet<string>,
  options: FlattenOptions = {},
): JsonRow[] {
  const { collapseBelowDepth = Infinity, forcedOpen } = options;
  const rows: JsonRow[] = [];
  walkJson(data, (node) => {
    const { id, depth, label, value } = node;
    if (!hasChildren(node)) {
      rows.push({ kind: "leaf", id, depth, label, value });
      return false;
    }
    const openByDefault =
      forcedOpen?.has(id) ||
      (node.group === undefined && !COLLAPSED_KEYS.has(label ?? "") && depth < collapseBelowDepth);
    const open = toggled.has(id) ? !openByDefault : openByDefault;
    if (node.group) {
      const size = node.group.end - node.group.start;
      rows.push({ kind: "group", id, depth, label: label ?? "", open, size });
    } else if (isContainer(value)) {
      const isArray = Array.isArray(value);
      rows.push({ kind: "branch", id, depth, label, open, isArray, size: sizeOf(value) });
    }
    return open;
  });
  return rows;
}
