// "Pause" freezes the list: what was listed when it was pressed stays listed, as it was, until
// "Resume", even when the oldest messages leave the store meanwhile (at the retention limit every
// arrival evicts one, so a list filtered from the store would move under the reader). Everything
// that arrives after is counted ("N new"): recognised by its seq, above the last seq each stream
// had at the pause. The frozen list is the store's array of that moment, not a copy.
import type { StreamMessage, StreamType } from "../../lib/streams/stream-store.ts";

/** The last seq of each stream among the listed messages: the pause's dividing line. */
export type PauseMarks = ReadonlyMap<StreamType, number>;

/**
 * What was held at the pause, and where new ones begin: by seq for held messages, by the server's
 * id (each stream's newest held then) for what a search of the server answers, by the time of the
 * pause for a stream that held nothing with an id.
 */
export type PauseHold = {
  marks: PauseMarks;
  frozen: readonly StreamMessage[];
  ids: PauseMarks;
  at: number;
};

export function marksAt(messages: readonly StreamMessage[]): PauseMarks {
  const marks = new Map<StreamType, number>();
  for (const message of messages) {
    marks.set(message.stream, Math.max(marks.get(message.stream) ?? -1, message.seq));
  }
  return marks;
}

/** Pausing now: the messages as they are, and where new ones begin. */
export function holdAt(messages: readonly StreamMessage[], at = Date.now()): PauseHold {
  const ids = new Map<StreamType, number>();
  for (const message of messages) {
    if (message.id === null) continue;
    ids.set(message.stream, Math.max(ids.get(message.stream) ?? -1, Number(message.id)));
  }
  return { marks: marksAt(messages), frozen: messages, ids, at };
}

/** Whether a message the server's search answered (known by its id) arrived after the pause. */
export function isRetainedNewSince(message: StreamMessage, hold: PauseHold): boolean {
  if (message.id === null) return false;
  const newest = hold.ids.get(message.stream);
  if (newest !== undefined) return Number(message.id) > newest;
  return (message.receivedAt ?? -Infinity) > hold.at;
}

export function isNewSince(message: StreamMessage, marks: PauseMarks): boolean {
  return message.seq > (marks.get(message.stream) ?? -1);
}

/** How many of the live messages arrived after the pause (those still held: at most the cap). */
export function countNew(live: readonly StreamMessage[], marks: PauseMarks): number {
  let count = 0;
  for (const message of live) if (isNewSince(message, marks)) count++;
  return count;
}

/** The first message, in arrival order, that arrived after the pause; undefined when none. */
export function firstNew(
  live: readonly StreamMessage[],
  marks: PauseMarks,
): StreamMessage | undefined {
  return live.find((message) => isNewSince(message, marks));
}
