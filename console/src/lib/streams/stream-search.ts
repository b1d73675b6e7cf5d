// "Search messages": a case-insensitive substring test over each message's JSON, combined with
// the type filter. The lowercase JSON of each message is computed once (on arrival, or on the
// first search after a reload) and kept beside it, so a key press costs one `includes` per
// message; a query's answers are remembered per message, so new arrivals cost only themselves.
// Work on thousands of unanswered messages is cut into slices that yield to the browser.
import type { StreamMessage } from "./stream-message.ts";

const searchTexts = new WeakMap<StreamMessage, string>();

/** The message's JSON, lowercased; computed once per message. */
export function searchTextOf(message: StreamMessage): string {
  let text = searchTexts.get(message);
  if (text === undefined) {
    try {
      text = JSON.stringify(message.data)?.toLowerCase() ?? "";
    } catch {
      // Nested beyond what JSON.stringify can walk: searchable by type only.
      text = "";
    }
    searchTexts.set(message, text);
  }
  return text;
}

export type MessageQuery = { text: string; activityType: string };

export function isEmptyQuery(query: MessageQuery): boolean {
  return query.text.trim() === "" && query.activityType === "";
}

export function queryKey(query: MessageQuery): string {
  return `${query.activityType}\u0000${query.text.trim().toLowerCase()}`;
}

/** True when the message has the chosen type (if any) and its JSON contains the text (if any). */
export function matchesQuery(message: StreamMessage, query: MessageQuery): boolean {
  if (query.activityType !== "" && message.activityType !== query.activityType) return false;
  const needle = query.text.trim().toLowerCase();
  return needle === "" || searchTextOf(message).includes(needle);
}

/**
 * The answers of one query, remembered per message as the position of the first match (-1: no
 * match). `filter` answers from memory and computes at most `budget` unknown ones; `fill` answers
 * the rest in slices. `narrowing`: the previous query's answers when this one can only match
 * fewer (the same type, a text containing the previous one): what did not match then cannot match
 * now, and when the text only grew at its end (typing), the search resumes where the shorter text
 * was found, so each key press costs little more than the matches themselves.
 */
export function createQueryAnswers(
  query: MessageQuery,
  narrowing?: QueryAnswers | null,
): QueryAnswers {
  const answers = new WeakMap<StreamMessage, number>();
  const needle = query.text.trim().toLowerCase();
  const previous = narrowing?.query.text.trim().toLowerCase() ?? "";
  const narrows =
    narrowing && narrowing.query.activityType === query.activityType && needle.includes(previous)
      ? narrowing
      : null;
  const resumes = narrows !== null && needle.startsWith(previous);
  /** A known answer, or where to start searching (-2 - from) when it must be computed. */
  const known = (message: StreamMessage): number => {
    const own = answers.get(message);
    if (own !== undefined) return own;
    const before = narrows?.position(message);
    if (before === undefined) return -2;
    if (before === -1) return -1;
    return -2 - (resumes ? before : 0);
  };
  const answer = (message: StreamMessage): boolean => {
    let position = known(message);
    if (position <= -2) {
      const from = -2 - position;
      const typeOk = query.activityType === "" || message.activityType === query.activityType;
      position = !typeOk ? -1 : needle === "" ? 0 : searchTextOf(message).indexOf(needle, from);
      answers.set(message, position);
    }
    return position >= 0;
  };
  return {
    key: queryKey(query),
    query,
    position: (message) => {
      const position = known(message);
      return position <= -2 ? undefined : position;
    },
    /** The matching messages, in order, or null when more than `budget` are costly to answer. */
    filter(messages: readonly StreamMessage[], budget = 500): StreamMessage[] | null {
      let unknown = 0;
      for (const message of messages) {
        // Resuming where the shorter text was found is cheap; starting from 0 is not.
        if (known(message) === -2 && ++unknown > budget) return null;
      }
      return messages.filter(answer);
    },
    /** Answers every message in slices of about `sliceMs`, yielding between them. */
    async fill(messages: readonly StreamMessage[], signal: AbortSignal, sliceMs = 12) {
      let index = 0;
      while (index < messages.length) {
        if (signal.aborted) return;
        const deadline = performance.now() + sliceMs;
        while (index < messages.length && performance.now() < deadline) {
          // Checking the clock costs more than one answer; do a few between checks.
          for (let n = 0; n < 16 && index < messages.length; n++, index++) answer(messages[index]!);
        }
        await yieldToBrowser();
      }
    },
  };
}

export type QueryAnswers = {
  key: string;
  query: MessageQuery;
  /** Where the text was first found in the message's JSON, -1 if not; undefined if not known. */
  position: (message: StreamMessage) => number | undefined;
  filter: (messages: readonly StreamMessage[], budget?: number) => StreamMessage[] | null;
  fill: (
    messages: readonly StreamMessage[],
    signal: AbortSignal,
    sliceMs?: number,
  ) => Promise<void>;
};

// A message-channel task runs as soon as the browser has handled input and painted, without the
// 4 ms clamp nested timeouts get.
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
