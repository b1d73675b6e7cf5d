// Characters a URL never holds unencoded: a value with one is text that mentions a URL (an error
// line such as `http://host/x answered 404 Not Found`), which the URL parser would still accept
// by percent-encoding the rest into the path.
const NOT_IN_A_URL = /[\s<>"\p{Cc}]/u;

/** The one rule for which tree values navigate: a value that is one absolute http(s) URL. */
export function isLookupUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || NOT_IN_A_URL.test(value)) return false;
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
