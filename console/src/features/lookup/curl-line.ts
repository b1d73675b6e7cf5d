const HANDLE = /^(?:acct:|@)?([^@\s/:]+)@([^@\s/]+)$/;
const ACCEPT_AS2 = "Accept: application/activity+json";

/**
 * The curl command that fetches what the URI field names. A handle (`@user@host`, `acct:…`) is
 * not a URL: once looked up, the line requests the id it resolved to; before that, the WebFinger
 * query that resolves it (the same pattern as the server's parseHandle): over https, as WebFinger
 * asks, except on the console's own host, which answers over the scheme it is served with.
 */
export function curlLine(
  field: string,
  resolvedId: string | null,
  consoleOrigin: string = window.location.origin,
): string {
  const uri = field.trim();
  if (uri === "") return `curl -H '${ACCEPT_AS2}' 'URI'`;
  const handle = HANDLE.exec(uri);
  if (!handle) return `curl -H '${ACCEPT_AS2}' ${quote(uri)}`;
  if (resolvedId) return `curl -H '${ACCEPT_AS2}' ${quote(resolvedId)}`;
  const [, user, host] = handle;
  const resource = encodeURIComponent(`acct:${user}@${host}`);
  const own = new URL(consoleOrigin);
  const scheme = own.host === host!.toLowerCase() ? own.protocol : "https:";
  const webfinger = `${scheme}//${host}/.well-known/webfinger?resource=${resource}`;
  return `curl -H 'Accept: application/jrd+json' ${quote(webfinger)}`;
}

/** Single-quoted for a POSIX shell, so the line can be pasted as it is. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
