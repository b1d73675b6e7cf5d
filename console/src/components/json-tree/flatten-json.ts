/**
 * Turns a JSON value into the flat list of rows currently visible, so the tree can render (and
 * virtualise) a plain list instead of a deep component tree. Cost is proportional to the rows
 * shown, not to the size of collapsed branches.
 */

export const COLLAPSED_KEYS: ReadonlySet<string> = new Set([
  "@context",
  "context",
  "signature",
  "publicKey",
  "proof",
]);

export const ARRAY_GROUP_SIZE = 100;

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

type Container = Record<string, unknown> | unknown[];
type FlattenOptions = { toggled: ReadonlySet<string>; collapseBelowDepth: number };

// Separators that cannot collide with ordinary key text in row ids.
const KEY_SEP = "\u0000";
const GROUP_SEP = "\u0001";

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function sizeOf(value: Container): number {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

/** A row is open by default unless its key is one we hide; `toggled` flips that default. */
function resolveOpen(id: string, openByDefault: boolean, toggled: ReadonlySet<string>): boolean {
  return toggled.has(id) ? !openByDefault : openByDefault;
}

/**
 * `collapseBelowDepth`: branches at this depth or deeper start collapsed (1 shows the top-level
 * keys and their children, with deeper branches closed until clicked).
 */
export function flattenJson(
  data: unknown,
  toggled: ReadonlySet<string>,
  collapseBelowDepth = Infinity,
): JsonRow[] {
  const rows: JsonRow[] = [];
  const options = { toggled, collapseBelowDepth };
  if (isContainer(data) && sizeOf(data) > 0) {
    pushChildren(rows, data, "", 0, options);
  } else {
    rows.push({ kind: "leaf", id: "", depth: 0, label: null, value: data });
  }
  return rows;
}

function pushEntry(
  rows: JsonRow[],
  label: string,
  value: unknown,
  id: string,
  depth: number,
  options: FlattenOptions,
): void {
  if (!isContainer(value) || sizeOf(value) === 0) {
    rows.push({ kind: "leaf", id, depth, label, value });
    return;
  }
  const openByDefault = !COLLAPSED_KEYS.has(label) && depth < options.collapseBelowDepth;
  const open = resolveOpen(id, openByDefault, options.toggled);
  const isArray = Array.isArray(value);
  rows.push({ kind: "branch", id, depth, label, open, isArray, size: sizeOf(value) });
  if (open) pushChildren(rows, value, id, depth + 1, options);
}

function pushChildren(
  rows: JsonRow[],
  value: Container,
  parentId: string,
  depth: number,
  options: FlattenOptions,
): void {
  if (!Array.isArray(value)) {
    for (const key of Object.keys(value).sort()) {
      pushEntry(rows, key, value[key], parentId + KEY_SEP + key, depth, options);
    }
    return;
  }
  if (value.length <= ARRAY_GROUP_SIZE) {
    pushItems(rows, value, 0, value.length, parentId, depth, options);
    return;
  }
  for (let start = 0; start < value.length; start += ARRAY_GROUP_SIZE) {
    const end = Math.min(start + ARRAY_GROUP_SIZE, value.length);
    const id = parentId + GROUP_SEP + start;
    const open = resolveOpen(id, false, options.toggled);
    const label = `[${start}…${end - 1}]`;
    rows.push({ kind: "group", id, depth, label, open, size: end - start });
    if (open) pushItems(rows, value, start, end, parentId, depth + 1, options);
  }
}

function pushItems(
  rows: JsonRow[],
  value: unknown[],
  start: number,
  end: number,
  parentId: string,
  depth: number,
  options: FlattenOptions,
): void {
  for (let index = start; index < end; index++) {
    pushEntry(rows, String(index), value[index], parentId + KEY_SEP + index, depth, options);
  }
}
