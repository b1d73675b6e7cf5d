// An error event in words on its summary line, and its tree with the failed message's body as
// JSON. The server writes the reason as lines (`message`): what failed, then why (the lines are
// written in server/src/delivery/ and server/src/events/report-error.ts).

type Json = Record<string, unknown>;

const REASON_CHARS = 120;

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Json)[key] : undefined;
}

function hostOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

const URL_AT_START = /^(https?:\/\/\S+?)(?::)?\s+(.*)$/;

/** Why it failed, in words: the network's words for the cause where given, else the lines. */
function readReason(lines: readonly string[]): string | null {
  for (const line of lines) {
    // "https://x/users/y could not be reached: ENOTFOUND (the name does not resolve)"
    const words = /could not be reached: .*\(([^()]+)\)\s*$/.exec(line)?.[1];
    if (words) return words;
  }
  for (const line of lines) {
    // "https://x/inbox answered 500 Internal Server Error"
    const rest = URL_AT_START.exec(line)?.[2];
    if (rest) return rest;
    // "refused private address 127.0.0.1 (127.0.0.1) for https://… (start the server with …)"
    if (line.startsWith("refused ")) return line.replace(/ for https?:\/\/.*$/, "");
  }
  const first = lines[0];
  if (first === undefined) return null;
  return first.replace(/^(?:no )?delivery to \S+?:?\s+/, "") || first;
}

function cut(text: string): string {
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS)}…` : text;
}

/**
 * `no-such-host.invalid: the name does not resolve`: the target's host (the event's `target` or
 * `inbox`, else the first URL its lines name) and the reason; null when the event says neither.
 */
export function describeError(data: unknown): string | null {
  const message = field(data, "message");
  const lines = (Array.isArray(message) ? message : [message]).filter(
    (line): line is string => typeof line === "string" && line !== "",
  );
  const named = [field(data, "target"), field(data, "inbox")].find(
    (value): value is string => typeof value === "string" && value !== "",
  );
  const firstUrl = lines.join(" ").match(/https?:\/\/[^\s:"]+(?::\d+)?[^\s:"]*/)?.[0] ?? null;
  const host = hostOf(named ?? firstUrl);
  const reason = readReason(lines);
  if (host === null) return reason === null ? null : cut(reason);
  return reason === null ? host : `${host}: ${cut(reason)}`;
}

/** The event with `original_message_body` parsed where it is JSON (it travels as a string). */
export function withParsedBody(data: unknown): unknown {
  const body = field(data, "original_message_body");
  if (typeof body !== "string") return data;
  try {
    return { ...(data as Json), original_message_body: JSON.parse(body) as unknown };
  } catch {
    return data;
  }
}
