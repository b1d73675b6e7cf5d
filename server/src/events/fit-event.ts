// Storage stays bounded per event: an event whose JSON is above the limit is stored with the
// tails of its long strings, arrays and objects cut, and `"truncated": true` at its top, so the
// fields the console reads (type, id, actor) survive and the event keeps its shape.

export const MAX_EVENT_BYTES = 64 * 1024;

// Tried in turn until the event fits: longest string kept, items kept per array or object.
const steps: ReadonlyArray<readonly [number, number]> = [
  [8192, 256],
  [2048, 64],
  [512, 16],
  [128, 4],
  [32, 1],
];
const MAX_DEPTH = 32;

/** The JSON text to store for `data`: as it is when it fits in `maxBytes`, else cut down. */
export function eventJson(data: object, maxBytes = MAX_EVENT_BYTES): string {
  const json = JSON.stringify(data);
  if (json.length * 3 <= maxBytes || Buffer.byteLength(json) <= maxBytes) return json;
  for (const [maxString, maxItems] of steps) {
    const cut = shrink(data, maxString, maxItems, 0);
    const text = JSON.stringify({ ...(cut as object), truncated: true });
    if (Buffer.byteLength(text) <= maxBytes) return text;
  }
  // Wider or deeper than any step can cut: only the top level's short scalars remain.
  const scalars = Object.entries(data).filter(
    ([, value]) => typeof value !== "object" && (typeof value !== "string" || value.length <= 32),
  );
  return JSON.stringify({ ...Object.fromEntries(scalars.slice(0, 16)), truncated: true });
}

function shrink(value: unknown, maxString: number, maxItems: number, depth: number): unknown {
  if (typeof value === "string")
    return value.length > maxString ? `${value.slice(0, maxString)}…` : value;
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(value))
    return value.slice(0, maxItems).map((item) => shrink(item, maxString, maxItems, depth + 1));
  const entries = Object.entries(value).slice(0, maxItems * 4);
  return Object.fromEntries(
    entries.map(([key, item]) => [key, shrink(item, maxString, maxItems, depth + 1)]),
  );
}
