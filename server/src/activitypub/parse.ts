// Reading ids out of ActivityPub JSON as it arrives (compact form, no JSON-LD: far too slow for
// the inbox). The normalised `parsed` view is muck-out.ts.

type Json = Record<string, unknown>;

/** The id of a reference that may be a string, an object with `id`, or a Link with `href`. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (isObject(value)) {
    if (typeof value.id === "string") return value.id;
    if (typeof value.href === "string") return value.href;
  }
  return undefined;
}

/** Every id a property names, whatever its shape (absent, one, or an array). */
export function idsOf(value: unknown): string[] {
  if (value == null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map(idOf).filter((id): id is string => id !== undefined);
}

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
