// Exported messages leave the browser: keys that carry credentials or signatures are replaced at
// any depth. Iterative (an explicit stack), so a document nested deeper than the call stack allows
// is still redacted instead of throwing.

export const REDACTED_KEYS: ReadonlySet<string> = new Set([
  "signature",
  "proof",
  "privateKey",
  "privateKeyPem",
  "authorization",
  "token",
]);
export const REDACTED = "[redacted]";

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

/** A copy of `value` with every value under a redacted key replaced by "[redacted]". */
export function redact(value: unknown): unknown {
  if (!isContainer(value)) return value;
  const root: Container = Array.isArray(value) ? [] : {};
  const stack: Array<{ from: Container; to: Container }> = [{ from: value, to: root }];
  while (stack.length > 0) {
    const { from, to } = stack.pop()!;
    const entries: Array<[string | number, unknown]> = Array.isArray(from)
      ? from.map((item, index) => [index, item])
      : Object.entries(from);
    for (const [key, item] of entries) {
      let copy: unknown = item;
      if (typeof key === "string" && REDACTED_KEYS.has(key)) copy = REDACTED;
      else if (isContainer(item)) {
        copy = Array.isArray(item) ? [] : {};
        stack.push({ from: item, to: copy as Container });
      }
      (to as Record<string | number, unknown>)[key] = copy;
    }
  }
  return root;
}
