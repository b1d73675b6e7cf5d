// What a stream event says, read the same way everywhere (summary, sender, type filter, search):
// muck_out's `data.parsed` when it is there, else the payload as it came (`data.raw`). A real
// cattle_grid sends `parsed: {}` for an activity without ids and no `parsed` without muck_out.
type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function dig(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** An AS2 `type`: a string, or the first string of a list. */
export function typeName(value: unknown): string | null {
  const type = Array.isArray(value) ? value.find((item) => typeof item === "string") : value;
  return typeof type === "string" && type !== "" ? type : null;
}

/** The event's activity: `data.parsed.activity`, else `data.raw`. */
export function readActivity(message: unknown): Json | null {
  const parsed = dig(message, ["data", "parsed", "activity"]);
  if (isObject(parsed)) return parsed;
  const raw = dig(message, ["data", "raw"]);
  return isObject(raw) ? raw : null;
}

/**
 * The object the activity carries: muck_out's `embedded_object` (cattle_grid), its older name
 * `object`, else the raw activity's own `object` when that is an object and not a link.
 */
export function readEmbeddedObject(message: unknown): Json | null {
  for (const key of ["embedded_object", "object"]) {
    const value = dig(message, ["data", "parsed", key]);
    if (isObject(value)) return value;
  }
  const object = dig(message, ["data", "raw", "object"]);
  return isObject(object) ? object : null;
}

/** The type the stream filter reads: the activity's (parsed, else raw), when it has one. */
export function readActivityType(message: unknown): string | null {
  return typeName(readActivity(message)?.type);
}

/**
 * Counts messages per activity type so the distinct list updates in O(batch), not O(messages),
 * and says whether the set of distinct types changed since it was last asked.
 */
export function createTypeCounter() {
  const counts = new Map<string, number>();
  let changed = false;
  return {
    add(type: string | null): void {
      if (type === null) return;
      const count = counts.get(type) ?? 0;
      if (count === 0) changed = true;
      counts.set(type, count + 1);
    },
    remove(type: string | null): void {
      if (type === null) return;
      const count = counts.get(type) ?? 0;
      if (count <= 1) {
        counts.delete(type);
        changed = true;
      } else counts.set(type, count - 1);
    },
    clear(): void {
      counts.clear();
      changed = false;
    },
    /** True once after the set of distinct types changed. */
    changed(): boolean {
      const result = changed;
      changed = false;
      return result;
    },
    sorted(): string[] {
      return [...counts.keys()].sort();
    },
  };
}
