/** The one field the stream filter reads: message.data.parsed.activity.type, when it is a string. */
export function readActivityType(message: unknown): string | null {
  const type = dig(message, ["data", "parsed", "activity", "type"]);
  return typeof type === "string" ? type : null;
}

function dig(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
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
