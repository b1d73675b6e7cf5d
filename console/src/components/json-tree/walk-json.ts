/**
 * A depth-first, pre-order walk over a JSON value with an explicit stack instead of recursion, so
 * a document nested 100,000 levels deep walks like a flat one (a recursive walk overflows the call
 * stack at a few thousand levels). Keys are visited sorted; arrays longer than ARRAY_GROUP_SIZE
 * are visited through group nodes of that many items.
 */
export const ARRAY_GROUP_SIZE = 100;

export type WalkNode = {
  /** Stable for the same place in the same document (see RowIds). */
  id: string;
  depth: number;
  /** The key or index; a group's "[100…199]"; null for a bare value at the top. */
  label: string | null;
  value: unknown;
  /** Set on group nodes: the items [start, end) of the array in `value`, owned by `arrayId`. */
  group?: { start: number; end: number; arrayId: string };
};

type Container = Record<string, unknown> | unknown[];

export function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

export function sizeOf(value: Container): number {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

/** A node has children when it is a group or a non-empty container. */
export function hasChildren(node: WalkNode): boolean {
  return node.group !== undefined || (isContainer(node.value) && sizeOf(node.value) > 0);
}

/**
 * Row ids built as "parent path + key" grow with depth, which makes a deep document cost
 * depth² memory; instead each (parent id, key) pair gets a short id, remembered per document so
 * a toggle finds the same row again on the next walk.
 */
class RowIds {
  private readonly ids = new Map<string, string>();
  child(parentId: string, key: string): string {
    return this.intern(`${parentId}\u0000${key}`);
  }
  group(parentId: string, start: number): string {
    return this.intern(`${parentId}\u0001${start}`);
  }
  private intern(path: string): string {
    let id = this.ids.get(path);
    if (id === undefined) {
      id = `r${this.ids.size + 1}`;
      this.ids.set(path, id);
    }
    return id;
  }
}

const idsByDocument = new WeakMap<object, RowIds>();

function rowIdsFor(data: unknown): RowIds {
  if (!isContainer(data)) return new RowIds();
  let ids = idsByDocument.get(data);
  if (!ids) idsByDocument.set(data, (ids = new RowIds()));
  return ids;
}

/**
 * Calls `visit` for every node in display order; `visit` returns whether to go into the node's
 * children (a collapsed row returns false, and its subtree costs nothing).
 */
export function walkJson(data: unknown, visit: (node: WalkNode) => boolean): void {
  const ids = rowIdsFor(data);
  if (!isContainer(data) || sizeOf(data) === 0) {
    visit({ id: "", depth: 0, label: null, value: data });
    return;
  }
  const stack: WalkNode[] = [];
  pushChildren(stack, ids, { id: "", depth: -1, label: null, value: data });
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (visit(node) && hasChildren(node)) pushChildren(stack, ids, node);
  }
}

/** Pushes a node's children in reverse, so that popping visits them in order. */
function pushChildren(stack: WalkNode[], ids: RowIds, parent: WalkNode): void {
  const depth = parent.depth + 1;
  const { value, group } = parent;
  if (group) {
    const items = value as unknown[];
    for (let index = group.end - 1; index >= group.start; index--) {
      const id = ids.child(group.arrayId, String(index));
      stack.push({ id, depth, label: String(index), value: items[index] });
    }
    return;
  }
  if (!Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index]!;
      stack.push({ id: ids.child(parent.id, key), depth, label: key, value: record[key] });
    }
    return;
  }
  if (value.length <= ARRAY_GROUP_SIZE) {
    for (let index = value.length - 1; index >= 0; index--) {
      const id = ids.child(parent.id, String(index));
      stack.push({ id, depth, label: String(index), value: value[index] });
    }
    return;
  }
  const lastStart = Math.floor((value.length - 1) / ARRAY_GROUP_SIZE) * ARRAY_GROUP_SIZE;
  for (let start = lastStart; start >= 0; start -= ARRAY_GROUP_SIZE) {
    const end = Math.min(start + ARRAY_GROUP_SIZE, value.length);
    stack.push({
      id: ids.group(parent.id, start),
      depth,
      label: `[${start}…${end - 1}]`,
      value,
      group: { start, end, arrayId: parent.id },
    });
  }
}
