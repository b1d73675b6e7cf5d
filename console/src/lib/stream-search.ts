// "Search messages": a case-insensitive substring test over each message's JSON, combined with
// the type filter. The lowercase JSON of each message is computed once (on arrival, or on the
// first search after a reload) and kept beside it, so a key press costs one `includes` per
// message; a query's answers are remembered per message, so new arrivals cost only themselves.
// Work on thousands of unanswered messages is cut into slices that yield to the browser.
import type { StreamMessage } from "./stream-store.ts";

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
 * The answers of one query, remembered per message. `filter` answers from memory and computes at
 * most `budget` unknown ones; `complete: false` means `fill` has work left.
 */
export function createQueryAnswers(query: MessageQuery) {
  const answers = new WeakMap<StreamMessage, boolean>();
  const answer = (message: StreamMessage) => {
    let match = answers.get(message);
    if (match === undefined) answers.set(message, (match = matchesQuery(message, query)));
    return match;
  };
  return {
    key: queryKey(query),
    /** The matching messages, in order, or null when more than `budget` are unanswered. */
    filter(messages: readonly StreamMessage[], budget = 500): StreamMessage[] | null {
      let unknown = 0;
      for (const message of messages) {
        if (!answers.has(message) && ++unknown > budget) return null;
      }
      return messages.filter(answer);
    },
    /** Answers every message in slices of about `sliceMs`, yielding between them. */
    async fill(messages: readonly StreamMessage[], signal: AbortSignal, sliceMs = 8) {
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

export type QueryAnswers = ReturnType<typeof createQueryAnswers>;

function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
