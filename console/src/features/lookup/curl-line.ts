const HANDLE = /^(?:acct:|@)?([^@\s/:]+)@([^@\s/]+)$/;
const ACCEPT_AS2 = "Accept: application/activity+json";
const ACCEPT_JRD = "Accept: application/jrd+json";

export type CurlContext = {
  /** The id a looked-up handle resolved to. */
  resolvedId?: string | null;
  /** The URL the server requested for a failed lookup of this field (its `url`), scheme as used. */
  requestedUrl?: string | null;
  consoleOrigin?: string;
};

/**
 * The curl command that fetches what the URI field names. A handle (`@user@host`, `acct:…`) is
 * not a URL: once looked up, the line requests the id it resolved to, or what the server requested
 * when the lookup failed (keeping the scheme it used: http for a test server on loopback); before
 * that, the WebFinger query that resolves it (the same pattern as the server's parseHandle): over
 * https, as WebFinger asks, except on the console's own host, which answers over the scheme it is
 * served with.
 */
export function curlLine(field: string, context: CurlContext = {}): string {
  const { resolvedId = null, requestedUrl = null } = context;
  const consoleOrigin = context.consoleOrigin ?? window.location.origin;
  const uri = field.trim();
  if (uri === "") return `curl -H '${ACCEPT_AS2}' 'URI'`;
  const handle = HANDLE.exec(uri);
  if (!handle) return `curl -H '${ACCEPT_AS2}' ${quote(uri)}`;
  if (resolvedId) return `curl -H '${ACCEPT_AS2}' ${quote(resolvedId)}`;
  if (requestedUrl) {
    const accept = requestedUrl.includes("/.well-known/webfinger?") ? ACCEPT_JRD : ACCEPT_AS2;
    return `curl -H '${accept}' ${quote(requestedUrl)}`;
  }
  const [, user, host] = handle;
  const resource = encodeURIComponent(`acct:${user}@${host}`);
  const own = new URL(consoleOrigin);
  const scheme = own.host === host!.toLowerCase() ? own.protocol : "https:";
  const webfinger = `${scheme}//${host}/.well-known/webfinger?resource=${resource}`;
  return `curl -H '${ACCEPT_JRD}' ${quote(webfinger)}`;
}

/** Single-quoted for a POSIX shell, so the line can be pasted as it is. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
