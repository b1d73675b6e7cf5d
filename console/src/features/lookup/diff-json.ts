/**
 * The path-by-path difference of two JSON documents: one line per leaf that was added, removed or
 * changed (an actor before and after update_actor). Walks with an explicit stack, so documents of
 * any depth compare without overflowing the call stack; pure, so a Web Worker can run it too.
 */
export type DiffLine =
  | { kind: "added"; path: string; after: string }
  | { kind: "removed"; path: string; before: string }
  | { kind: "changed"; path: string; before: string; after: string };

export type JsonDiff = { lines: DiffLine[]; /** Lines not listed past the limit. */ more: number };

export const DIFF_LINE_LIMIT = 2_000;

type Side = "before" | "after" | "both";
type Task = { path: string; before: unknown; after: unknown; side: Side };

export function diffJson(before: unknown, after: unknown, limit = DIFF_LINE_LIMIT): JsonDiff {
  const lines: DiffLine[] = [];
  let more = 0;
  const emit = (line: DiffLine) => (lines.length < limit ? lines.push(line) : more++);
  const stack: Task[] = [{ path: "", before, after, side: "both" }];
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    const { path, side } = task;
    if (side !== "both") {
      const value = side === "before" ? task.before : task.after;
      if (isFilled(value)) pushChildren(stack, path, value, side);
      else if (side === "before")
        emit({ kind: "removed", path: shown(path), before: preview(value) });
      else emit({ kind: "added", path: shown(path), after: preview(value) });
      continue;
    }
    const [a, b] = [task.before, task.after];
    if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) {
      pushPairs(stack, path, a, b);
    } else if (isFilled(a) || isFilled(b)) {
      // A value that became (or stopped being) a container: its leaves left and arrived.
      stack.push({ path, before: undefined, after: b, side: "after" });
      stack.push({ path, before: a, after: undefined, side: "before" });
    } else if (!sameScalar(a, b)) {
      emit({ kind: "changed", path: shown(path), before: preview(a), after: preview(b) });
    }
  }
  return { lines, more };
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

/** A non-empty object or array: its leaves are listed. */
function isFilled(value: unknown): value is Container {
  if (typeof value !== "object" || value === null) return false;
  return Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0;
}

function sameScalar(a: unknown, b: unknown): boolean {
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null)
    return Array.isArray(a) === Array.isArray(b); // both empty
  return Object.is(a, b);
}

function keysOf(value: Container): string[] {
  return Array.isArray(value) ? value.map((_, index) => String(index)) : Object.keys(value);
}

function childPath(path: string, key: string, isArray: boolean): string {
  if (isArray) return `${path}[${key}]`;
  return /^[A-Za-z_$@][\w$@-]*$/.test(key)
    ? `${path}${path ? "." : ""}${key}`
    : `${path}[${JSON.stringify(key)}]`;
}

function pushPairs(stack: Task[], path: string, a: Container, b: Container): void {
  const isArray = Array.isArray(a);
  const keys = [...new Set([...keysOf(a), ...keysOf(b)])];
  if (!isArray) keys.sort();
  // Reversed, so that popping handles them in order.
  for (let index = keys.length - 1; index >= 0; index--) {
    const key = keys[index]!;
    const before = (a as Record<string, unknown>)[key];
    const after = (b as Record<string, unknown>)[key];
    const inA = Object.hasOwn(a, key);
    const inB = Object.hasOwn(b, key);
    const side: Side = inA && inB ? "both" : inA ? "before" : "after";
    stack.push({ path: childPath(path, key, isArray), before, after, side });
  }
}

function pushChildren(stack: Task[], path: string, value: Container, side: Side): void {
  const isArray = Array.isArray(value);
  const keys = isArray ? keysOf(value) : keysOf(value).sort();
  for (let index = keys.length - 1; index >= 0; index--) {
    const key = keys[index]!;
    const child = (value as Record<string, unknown>)[key];
    const task = { path: childPath(path, key, isArray), before: undefined, after: undefined, side };
    stack.push(side === "before" ? { ...task, before: child } : { ...task, after: child });
  }
}

function shown(path: string): string {
  return path === "" ? "(document)" : path;
}

/** Scalars as JSON; what reaches here is never a filled container. */
function preview(value: unknown): string {
  if (value === undefined) return "(none)";
  if (Array.isArray(value)) return "[]";
  if (typeof value === "object" && value !== null) return "{}";
  return JSON.stringify(value);
}

/** Counts values in a document, stopping past `limit` (decides whether a worker is worth it). */
export function countValues(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const next = stack.pop();
    count++;
    if (isContainer(next)) for (const child of Object.values(next)) stack.push(child);
  }
  return count;
}
