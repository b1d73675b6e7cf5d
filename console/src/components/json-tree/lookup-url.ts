/** The one rule for which tree values navigate: absolute http(s) URLs only. */
export function isLookupUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.host !== "";
  } catch {
    return false;
  }
}

export function buildLookupPath(url: string): string {
  return `/lookup?uri=${encodeURIComponent(url)}`;
}
